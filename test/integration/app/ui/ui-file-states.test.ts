// The state service of the window's core, as `mch-sync ui` runs it against the real device: its pairs' states on the socket, "Stop syncing this folder" carried out by the window's own call, "Why is this not synced?" and "Show in mch-sync" opening the browser at the route.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { serviceOf, stateBecomes, statesNow, subscribe } from '../../../helpers/file-state.ts';
import { waitFor } from '../../../helpers/on-demand-cli.ts';
import { startUiHost, type UiHostProcess } from '../../../helpers/ui-host-process.ts';
import { local, syncedWorld, writeLocal } from '../../../helpers/versions-cli.ts';
import { routeOf } from '../../../../common/window-route.ts';
import { stateSocketDir } from '../../../../app/file-state/state-socket-path.ts';
import type { ViewName } from '../../../../common/contract.ts';

const SLOW = 300_000;
const VIEWS: ViewName[] = ['status', 'issues'];

/** A stand-in for xdg-open on PATH that writes each address it is given as a line of `record`. */
function recordingOpener(dir: string): { bin: string; record: string } {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const record = join(dir, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${record}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  return { bin, record };
}

function opened(record: string): string[] {
  return existsSync(record)
    ? readFileSync(record, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
}

async function stop(host: UiHostProcess): Promise<void> {
  if (host.process.exitCode !== null) return;
  const exited = new Promise((resolve) => host.process.once('exit', resolve));
  host.process.kill('SIGTERM');
  await exited;
}

describe('the state service of mch-sync ui', () => {
  it(
    'serves its pairs’ states, excludes through the window’s call and opens the window at an item’s issue',
    async ({ profile, newPair, tempDir }) => {
      const world = await syncedWorld(profile, newPair, 'window-states', {
        'docs/a.txt': 'a',
        'Photos/2019/p.txt': 'p',
        'top.txt': 'top',
      });
      const opener = recordingOpener(tempDir);
      const host = await startUiHost(profile.profile, {
        ...profile.env,
        PATH: `${opener.bin}:${profile.env['PATH'] ?? ''}`,
        DISPLAY: ':99',
      });
      try {
        // The window's pairs, each fed to the one socket of this process.
        const service = await serviceOf(profile, world.folder);
        expect(service.pid).toBe(host.process.pid);
        const synced = await statesNow(service, world.folder, ['docs/a.txt', 'docs', '']);
        expect(synced.map((answer) => [answer.state, answer.kind])).toEqual([
          ['up-to-date', 'file'],
          ['up-to-date', 'folder'],
          ['up-to-date', 'folder'],
        ]);

        // An edit is pushed as waiting (or uploading), then up to date again.
        const watch = await subscribe(profile, world.folder);
        writeLocal(world, 'docs/a.txt', 'a 2');
        await watch.pushedState(local(world, 'docs/a.txt'), 'waiting', 'syncing-up');
        await watch.pushedState(local(world, 'docs/a.txt'), 'up-to-date');
        watch.close();

        // "Stop syncing this folder": excluded, its copy here to the trash once synced, kept on the device.
        const excluded = await service.request({
          op: 'act',
          action: 'exclude',
          paths: [local(world, 'Photos/2019')],
        });
        expect(excluded.type === 'done' && excluded.message).toMatch(/Photos\/2019 is no longer synced/);
        await stateBecomes(service, world.folder, 'Photos/2019', 'excluded');
        await waitFor('the excluded folder’s copy to leave', () =>
          existsSync(local(world, 'Photos/2019')) ? undefined : true,
        );
        expect(await world.device.remoteAt('Photos/2019/p.txt')).toBeDefined();

        // Not synced: a name clash. "Why is this not synced?" on its folder opens the window at the
        // issue of the item below it that makes it so.
        writeLocal(world, 'docs/caf\u00e9.txt', 'nfc');
        writeLocal(world, 'docs/cafe\u0301.txt', 'nfd');
        const clash = await stateBecomes(service, world.folder, 'docs', 'not-synced');
        expect(clash.from).toMatch(/docs\/caf/);
        const why = await service.request({ op: 'act', action: 'why', paths: [local(world, 'docs')] });
        expect(why.type).toBe('done');
        const [issuesUrl] = await waitFor('the browser to be opened', () => {
          const urls = opened(opener.record);
          return urls.length > 0 ? urls : undefined;
        });
        const address = new URL(host.address);
        const url = new URL(issuesUrl ?? '');
        expect(url.origin).toBe(address.origin);
        // The run's secret, so any browser gets in; the route in the fragment.
        expect(url.searchParams.get('secret')).toBe(address.searchParams.get('secret'));
        expect(routeOf(url.hash, VIEWS)).toEqual({ view: 'issues', item: clash.from });

        // "Show in mch-sync": Status, at the item.
        const show = await service.request({ op: 'act', action: 'show', paths: [local(world, 'top.txt')] });
        expect(show.type).toBe('done');
        const statusUrl = await waitFor('the browser to be opened again', () => opened(opener.record)[1]);
        expect(routeOf(new URL(statusUrl).hash, VIEWS)).toEqual({
          view: 'status',
          item: local(world, 'top.txt'),
        });
      } finally {
        await stop(host);
      }
      // Stopped: its socket is gone with it.
      expect(existsSync(join(stateSocketDir(profile.profile), `${host.process.pid ?? 0}.sock`))).toBe(false);
    },
    SLOW,
  );
});
