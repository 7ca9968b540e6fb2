// The states only an on-demand pair and a share link give: online only, kept on this computer, up to date once opened, shared by a link (pushed when `mch-sync share` makes it).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { liveSync, mch, serviceLogs, waitFor } from '../../../helpers/on-demand-cli.ts';
import { serviceOf, stateBecomes, statesNow, subscribe } from '../../../helpers/file-state.ts';

const SLOW = 300_000;
const run = promisify(execFile);

describe('the state service of an on-demand pair', () => {
  it(
    'says online only, kept and up to date as files come and go, and shared once a link is made',
    async ({ device, profile }) => {
      const api = clientFor(device).device;
      const folder = join(profile.home, 'Device');
      mkdirSync(folder);
      expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
      const root = await api.createFolder({ parentId: 'root', name: 'Device' });
      const docs = await api.createFolder({ parentId: root.id, name: 'Docs' });
      await api.create({ parentId: docs.id, name: 'a.txt', content: Buffer.from('alpha') });
      await api.create({ parentId: docs.id, name: 'b.txt', content: Buffer.from('bravo') });
      await api.create({ parentId: root.id, name: 'c.txt', content: Buffer.from('charlie') });

      const live = await liveSync(profile, folder);
      try {
        const service = await serviceOf(profile, folder);
        await stateBecomes(service, folder, 'Docs/a.txt', 'online-only');
        const [a, docsFolder] = await statesNow(service, folder, ['Docs/a.txt', 'Docs']);
        expect(a).toMatchObject({ kind: 'file', onDemand: true, shared: false });
        expect(docsFolder).toMatchObject({ state: 'up-to-date', kind: 'folder' });

        // Opened through the mount by a child process, waited for without blocking: the device answers
        // from this process.
        const watch = await subscribe(profile, folder);
        const cat = await run('cat', [join(folder, 'c.txt')]).catch((error: Error) => ({
          stdout: `${error.message}\n${serviceLogs(profile)}`,
        }));
        expect(cat.stdout).toBe('charlie');
        await stateBecomes(service, folder, 'c.txt', 'up-to-date');

        // Pinned: kept, the folder's files come down, and the pin is pushed.
        expectExit(await mch(profile, ['pin', join(folder, 'Docs')]), 0);
        await watch.pushedState(join(folder, 'Docs/b.txt'), 'kept');
        await stateBecomes(service, folder, 'Docs/a.txt', 'kept');
        expect((await statesNow(service, folder, ['Docs']))[0]?.state).toBe('kept');

        // A link made by the command: the item says so at once, without waiting for a poll.
        const shared = await mch(profile, ['share', join(folder, 'c.txt')]);
        expectExit(shared, 0);
        await waitFor('a push that c.txt is shared', () =>
          watch.pushed.find((answer) => answer.path === join(folder, 'c.txt') && answer.shared),
        );
        expect((await statesNow(service, folder, ['c.txt']))[0]).toMatchObject({
          state: 'up-to-date',
          shared: true,
        });
        const words = await mch(profile, ['state', join(folder, 'c.txt'), join(folder, 'Docs/a.txt')]);
        expect(words.stdout).toContain('shared by a link');
        expect(words.stdout).toContain('kept on this computer');
        watch.close();
        service.close();
      } finally {
        await live.stop();
      }
    },
    SLOW,
  );
});
