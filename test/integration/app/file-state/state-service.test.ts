// The state service of `mch-sync run` against the real engine and device: every state reached for real, folders rolled up, pushes, a restart, and requests it must refuse.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { liveSync, mch } from '../../../helpers/on-demand-cli.ts';
import { serviceOf, stateBecomes, statesNow, subscribe } from '../../../helpers/file-state.ts';
import { local, syncedWorld, writeLocal } from '../../../helpers/versions-cli.ts';
import { stateSocketDir } from '../../../../app/file-state/state-socket-path.ts';
import type { StateJson } from '../../../../app/cli/state-commands/state-command.ts';
import { MAX_STATE_PATHS, type FileStateChildren } from '../../../../common/file-state.ts';
import type { StateConnection } from '../../../../app/file-state/state-client.ts';
import { SYSTEM_PYTHON } from '../../../helpers/python-gi.ts';
import { entryOfAnswer } from '../../../helpers/state-stand-in.ts';

const SLOW = 300_000;

/** One line sent on a fresh connection; the lines it gets back until `count` arrived (the hello first). */
function rawExchange(socketPath: string, payload: Buffer | string, count: number): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const lines = text.split('\n').filter((line) => line !== '');
      if (lines.length >= count) {
        socket.destroy();
        resolve(lines.map((line) => JSON.parse(line) as unknown));
      }
    });
    socket.once('error', reject);
    socket.write(payload);
  });
}

/** Every entry of a `children` answer is what `state` says of it, and they are all there is. */
async function expectEntriesAsStated(
  service: StateConnection,
  folder: string,
  children: FileStateChildren,
): Promise<void> {
  const names = Object.keys(children.entries).sort();
  expect(names).toEqual(
    readdirSync(folder)
      .filter((name) => name !== '.mch-sync')
      .sort(),
  );
  const full = await statesNow(service, folder, names);
  expect(Object.fromEntries(full.map((answer, at) => [names[at], entryOfAnswer(answer, folder)]))).toEqual(
    children.entries,
  );
  expect(full.map((answer) => [answer.folder, answer.onDemand])).toEqual(
    names.map(() => [children.folder.folder, children.folder.onDemand]),
  );
}

describe('the state service of mch-sync run', () => {
  it(
    'answers each state as the folder really is, rolls folders up, pushes changes and refuses bad requests',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'states', {
        'docs/a.txt': 'a',
        'docs/deep/b.txt': 'b',
        'top.txt': 'top',
      });
      const live = await liveSync(profile, world.folder, { mounted: false });
      try {
        const service = await serviceOf(profile, world.folder);
        const synced = await statesNow(service, world.folder, [
          'docs/a.txt',
          'docs',
          '',
          '.mch-sync',
          'gone.txt',
        ]);
        expect(synced.map((answer) => [answer.state, answer.kind])).toEqual([
          ['up-to-date', 'file'],
          ['up-to-date', 'folder'],
          ['up-to-date', 'folder'],
          ['outside', null],
          ['outside', null],
        ]);
        expect(synced[0]?.folder).toBe(world.folder);
        const [elsewhere] = await statesNow(service, profile.home, ['']);
        expect(elsewhere).toEqual({ path: profile.home, state: 'outside', kind: null, shared: false });

        // An edit: waiting or uploading pushed (one push a turn: what it is by then), then up to date
        // again, with its folders.
        const watch = await subscribe(profile, world.folder);
        writeLocal(world, 'docs/deep/b.txt', 'b 2');
        await watch.pushedState(local(world, 'docs/deep/b.txt'), 'waiting', 'syncing-up');
        await watch.pushedState(local(world, 'docs'), 'waiting', 'syncing-up');
        await watch.pushedState(local(world, 'docs/deep/b.txt'), 'up-to-date');
        await watch.pushedState(local(world, 'docs'), 'up-to-date');

        // A real upload in progress: a large file shows syncing-up before it is up to date.
        writeFileSync(local(world, 'big.bin'), Buffer.alloc(96 * 1024 * 1024, 7));
        await watch.pushedState(local(world, 'big.bin'), 'syncing-up');
        await watch.pushedState(local(world, 'big.bin'), 'up-to-date');

        // A name clash (the same name in two Unicode forms) is not synced, and its folder says so.
        writeLocal(world, 'docs/caf\u00e9.txt', 'nfc');
        writeLocal(world, 'docs/cafe\u0301.txt', 'nfd');
        const clash = await watch.pushedState(local(world, 'docs'), 'not-synced');
        expect(clash.reason).toBe('name-clash');
        expect(clash.from).toMatch(/docs\/caf/);
        const [root] = await statesNow(service, world.folder, ['']);
        expect(root?.state).toBe('not-synced');

        // An ignored file is not synced for a reason that does not climb to its folder.
        writeLocal(world, 'top.txt~', 'editor backup');
        const ignored = await stateBecomes(service, world.folder, 'top.txt~', 'not-synced');
        expect(ignored.reason).toBe('ignored');

        // A real conflict: both sides changed while paused.
        expectExit(await mch(profile, ['pause', '--folder', world.folder]), 0);
        writeLocal(world, 'top.txt', 'top here');
        await world.device.writeRemote('top.txt', 'top there');
        expectExit(await mch(profile, ['resume', '--folder', world.folder]), 0);
        await stateBecomes(service, world.folder, 'top.txt', 'conflict');
        const copy = readdirSync(world.folder).find((name) => name.startsWith('top (conflicted copy'));
        expect(copy).toBeDefined();
        expect((await statesNow(service, world.folder, [copy ?? '']))[0]?.state).toBe('conflict');

        // `children`: a folder's own state and every entry's by name, in one answer, each entry what
        // `state` says of it, in short.
        const docs = local(world, 'docs');
        const children = await service.request({ op: 'children', path: docs });
        expect(children.folder).toMatchObject({ path: docs, state: 'not-synced', kind: 'folder' });
        expect(children.entries['a.txt']).toBe('up-to-date');
        await expectEntriesAsStated(service, docs, children);
        // The pair's folder: its own folder left out, `from` said relative to the folder asked.
        const top = await service.request({ op: 'children', path: world.folder });
        const docsEntry = top.entries['docs'];
        expect(typeof docsEntry === 'object' && docsEntry.state).toBe('not-synced');
        expect(typeof docsEntry === 'object' && docsEntry.from).toMatch(/^docs\/caf/);
        expect(top.entries['top.txt~']).toMatchObject({ state: 'not-synced', reason: 'ignored' });
        await expectEntriesAsStated(service, world.folder, top);

        // The command line asks the same service.
        const cli = await mch(profile, ['state', local(world, 'docs/a.txt'), profile.home, '--json']);
        expectExit(cli, 0);
        const states = (JSON.parse(cli.stdout) as { states: StateJson[] }).states;
        expect(states.map((answer) => [answer.state, answer.live])).toEqual([
          ['up-to-date', true],
          ['outside', false],
        ]);

        // Bad requests get an error line each and the connection and the service stay up.
        const socketPath = join(stateSocketDir(profile.profile), `${live.child.pid ?? 0}.sock`);
        const refused = await rawExchange(
          socketPath,
          'not json\n{"id":7,"op":"nope"}\n{"id":8,"op":"state","paths":["relative"]}\n',
          4,
        );
        expect(refused.slice(1)).toEqual([
          expect.objectContaining({ type: 'error', id: null, code: 'STATE_BAD_REQUEST' }),
          expect.objectContaining({ type: 'error', id: 7, code: 'STATE_BAD_REQUEST' }),
          expect.objectContaining({ type: 'error', id: 8, code: 'STATE_BAD_REQUEST' }),
        ]);
        const huge = `{"id":9,"op":"state","paths":["/${'x'.repeat(2 * 1024 * 1024)}"]}\n{"id":10,"op":"state","paths":["/"]}\n`;
        const afterHuge = await rawExchange(socketPath, huge, 3);
        expect(afterHuge[1]).toEqual(expect.objectContaining({ type: 'error', code: 'STATE_TOO_LARGE' }));
        expect(afterHuge[2]).toEqual(expect.objectContaining({ type: 'answer', id: 10 }));
        const many = JSON.stringify({
          id: 11,
          op: 'state',
          paths: Array.from({ length: MAX_STATE_PATHS + 1 }, () => '/'),
        });
        const tooMany = await rawExchange(socketPath, `${many}\n`, 2);
        expect(tooMany[1]).toEqual(
          expect.objectContaining({ type: 'error', id: 11, code: 'STATE_TOO_LARGE' }),
        );
        expect((await statesNow(service, world.folder, ['docs/a.txt']))[0]?.state).toBe('up-to-date');

        // Only this user may connect: the folder is 0700 and the socket 0600.
        expect(statSync(stateSocketDir(profile.profile)).mode & 0o777).toBe(0o700);
        expect(statSync(socketPath).mode & 0o777).toBe(0o600);
        if (process.getuid?.() === 0) {
          // Every folder above the state folder open to all: only the state folder's own mode keeps them out.
          for (const dir of [profile.home, profile.profile, join(profile.profile, 'run')])
            chmodSync(dir, 0o755);
          const stranger = spawnSync('setpriv', [
            '--reuid=65534',
            '--regid=65534',
            '--clear-groups',
            '--',
            SYSTEM_PYTHON,
            '-c',
            `import socket\ns=socket.socket(socket.AF_UNIX)\ntry:\n  s.connect(${JSON.stringify(socketPath)})\n  print("connected")\nexcept OSError as e:\n  print(e.errno)`,
          ]);
          expect(stranger.stdout.toString().trim(), stranger.stderr.toString()).toBe('13');
        }
        watch.close();
        service.close();
      } finally {
        await live.stop();
      }

      // Stopped: its socket is gone, and the command answers from the index of the last sync.
      expect(readdirSync(stateSocketDir(profile.profile)).filter((name) => name.endsWith('.sock'))).toEqual(
        [],
      );
      const offline = await mch(profile, ['state', local(world, 'docs/a.txt'), '--json']);
      expectExit(offline, 0);
      expect((JSON.parse(offline.stdout) as { states: StateJson[] }).states[0]).toEqual(
        expect.objectContaining({ state: 'up-to-date', live: false }),
      );
      const words = await mch(profile, ['state', local(world, 'docs/a.txt')]);
      expect(words.stdout).toContain('up to date');
      expect(words.stdout).toContain('as of the last sync');
    },
    SLOW,
  );

  it(
    'is found again by a subscriber after the client restarts, and carries out an action',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'restart', { 'keep/a.txt': 'a', 'b.txt': 'b' });
      const first = await liveSync(profile, world.folder, { mounted: false });
      const before = await serviceOf(profile, world.folder);
      await first.stop();
      const second = await liveSync(profile, world.folder, { mounted: false });
      try {
        const after = await serviceOf(profile, world.folder);
        expect(after.pid).not.toBe(before.pid);
        expect((await statesNow(after, world.folder, ['b.txt']))[0]?.state).toBe('up-to-date');
        // "Stop syncing this folder" as the file manager asks it: the folder is excluded.
        const done = await after.request({ op: 'act', action: 'exclude', paths: [local(world, 'keep')] });
        expect(done.type).toBe('done');
        await stateBecomes(after, world.folder, 'keep', 'excluded');
        // `show` needs a window, which `mch-sync run` has not: refused in words.
        await expect(
          after.request({ op: 'act', action: 'show', paths: [local(world, 'b.txt')] }),
        ).rejects.toThrow(/no window/);
        after.close();
      } finally {
        await second.stop();
      }
      before.close();
    },
    SLOW,
  );
});
