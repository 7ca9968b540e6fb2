// The python extension's emblems and actions by state, against a stand-in state socket: what it asks, when it waits, how it recovers.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emblemKeyword, type EmblemName } from '../../../../app/integrate/emblem-icons.ts';
import { describeEntry } from '../../../../app/integrate/entry-description.ts';
import { renderPythonExtension } from '../../../../app/integrate/python-extension.ts';
import { stateSocketDir } from '../../../../app/file-state/state-socket-path.ts';
import { registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import { NautilusHarness } from '../../../helpers/nautilus-harness.ts';
import { HELPER_DIR, missingGi } from '../../../helpers/python-gi.ts';
import { StateStandIn } from '../../../helpers/state-stand-in.ts';

const skipReason = missingGi({ nautilus: true });
const home = mkdtempSync(join(tmpdir(), 'mch-state-extension-'));
const profile = join(home, 'profile');
const synced = join(home, 'Cloud');
const stateDir = stateSocketDir(profile);
const description = describeEntry({ baseCommand: ['/bin/true'], profileDir: profile, defaultProfile: false });
const emblem = (name: EmblemName): string => emblemKeyword(description, name);
const notified = join(home, 'notified.json');
let extension: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  mkdirSync(join(synced, 'Docs'), { recursive: true });
  await registerFolderPair(profile, { localRoot: synced, remoteFolder: '/Cloud' });
  extension = join(home, 'extension.py');
  writeFileSync(extension, renderPythonExtension(description, 'nautilus'));
  // notify-send stands in as the argv recorder: what the extension tells the user is written down.
  const bin = join(home, 'bin');
  mkdirSync(bin);
  copyFileSync(join(HELPER_DIR, 'argv-recorder.py'), join(bin, 'notify-send'));
  chmodSync(join(bin, 'notify-send'), 0o755);
  env = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, RECORD_TO: notified };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const at = (...parts: string[]): string => join(synced, ...parts);
const poll = <T>(read: () => Promise<T>): ReturnType<typeof expect.poll<T>> =>
  expect.poll(read, { timeout: 10_000, interval: 50 });

describe.skipIf(skipReason !== undefined)(
  `emblems and actions by state (${skipReason ?? 'gi found'})`,
  () => {
    let standIn: StateStandIn | undefined;
    let harness: NautilusHarness | undefined;

    afterEach(async () => {
      harness?.close();
      await standIn?.close();
      harness = undefined;
      standIn = undefined;
    });

    async function serve(): Promise<StateStandIn> {
      standIn = await StateStandIn.start(join(stateDir, '4242.sock'), [synced]);
      return standIn;
    }

    it('draws each state as its emblem, and a link share as a second one', async () => {
      const service = await serve();
      const states = {
        'a.txt': ['up-to-date', 'up-to-date'],
        'b.txt': ['syncing-up', 'syncing'],
        'c.txt': ['syncing-down', 'syncing'],
        'd.txt': ['waiting', 'waiting'],
        'e.txt': ['conflict', 'conflict'],
        'f.txt': ['not-synced', 'not-synced'],
        'g.txt': ['online-only', 'online-only'],
        'h.txt': ['kept', 'kept'],
        Old: ['excluded', 'excluded'],
      } as const;
      for (const [name, [state]] of Object.entries(states)) service.set(at(name), state);
      service.set(at('shared.txt'), 'up-to-date', { shared: true });
      service.set(synced, 'conflict', { kind: 'folder', from: at('e.txt') });
      harness = new NautilusHarness(extension, env);
      const paths = [...Object.keys(states), 'shared.txt'].map((name) => at(name));
      const { emblems } = await harness.show([synced, ...paths, join(home, 'outside.txt')]);
      for (const [name, [, drawn]] of Object.entries(states))
        expect(emblems[at(name)]).toEqual([emblem(drawn)]);
      expect(emblems[at('shared.txt')]).toEqual([emblem('up-to-date'), emblem('shared')]);
      // The synced folder, shown in its parent, carries what is most urgent below it.
      expect(emblems[synced]).toEqual([emblem('conflict')]);
      expect(emblems[join(home, 'outside.txt')]).toEqual([]);
    });

    it('asks once for a folder of 5,000 files, and redraws an item when its state is pushed', async () => {
      const service = await serve();
      const names = Array.from({ length: 5000 }, (_, index) => `file ${index}.txt`);
      for (const name of names) service.set(at('Docs', name), 'up-to-date');
      harness = new NautilusHarness(extension, env);
      const { emblems } = await harness.show(names.map((name) => at('Docs', name)));
      expect(Object.values(emblems).every((drawn) => drawn[0] === emblem('up-to-date'))).toBe(true);
      expect(
        service.requestsOf('children').map((request) => request.op === 'children' && request.path),
      ).toEqual([at('Docs')]);
      expect(service.requestsOf('state')).toEqual([]);
      await poll(() => Promise.resolve(service.subscribers())).toBe(1);

      service.push([{ ...service.set(at('Docs', 'file 7.txt'), 'syncing-up') }]);
      await poll(async () => (await harness!.shown([at('Docs', 'file 7.txt')])).emblems).toEqual({
        [at('Docs', 'file 7.txt')]: [emblem('syncing')],
      });
      const after = await harness.shown([at('Docs', 'file 8.txt'), at('Docs', 'file 7.txt')]);
      expect(after.invalidated).toEqual({ [at('Docs', 'file 8.txt')]: 0, [at('Docs', 'file 7.txt')]: 1 });
      // The change came from the cache: the folder was not asked again.
      expect(service.requestsOf('children')).toHaveLength(1);
    });

    it('never waits past half a second for a slow client, and draws the emblems when its answer comes', async () => {
      const service = await serve();
      service.childrenDelayMs = 1500;
      service.set(at('Docs', 'slow.txt'), 'waiting');
      harness = new NautilusHarness(extension, env);
      const { emblems, seconds } = await harness.show([at('Docs', 'slow.txt')]);
      // Drawn without the answer, and before it could have come: the file manager did not wait for it.
      expect(emblems[at('Docs', 'slow.txt')]).toEqual([]);
      expect(seconds).toBeLessThan(service.childrenDelayMs / 1000);
      await poll(
        async () => (await harness!.shown([at('Docs', 'slow.txt')])).emblems[at('Docs', 'slow.txt')],
      ).toEqual([emblem('waiting')]);
    });

    it('finds a client started after the file manager, and one restarted, without being loaded again', async () => {
      harness = new NautilusHarness(extension, env);
      expect((await harness.show([at('a.txt')])).emblems[at('a.txt')]).toEqual([]);
      expect(await harness.labels([at('a.txt')])).toEqual(['Copy share link']);
      let service = await serve();
      service.set(at('a.txt'), 'up-to-date');
      await poll(async () => (await harness!.shown([at('a.txt')])).emblems[at('a.txt')]).toEqual([
        emblem('up-to-date'),
      ]);

      await service.close();
      // Gone: the item is asked again and has no emblem while no client runs.
      await poll(async () => (await harness!.shown([at('a.txt')])).emblems[at('a.txt')]).toEqual([]);
      service = await serve();
      service.set(at('a.txt'), 'conflict');
      await poll(async () => (await harness!.shown([at('a.txt')])).emblems[at('a.txt')]).toEqual([
        emblem('conflict'),
      ]);
    });

    it('offers the actions each state allows', async () => {
      const service = await serve();
      service.set(at('Docs'), 'up-to-date', { kind: 'folder' });
      service.set(at('Old'), 'excluded', { kind: 'folder' });
      service.set(at('e.txt'), 'conflict');
      service.set(at('f.txt'), 'not-synced', { reason: 'name-clash', code: 'NAME_CLASH' });
      service.set(at('g.txt'), 'online-only', { onDemand: true });
      service.set(at('h.txt'), 'kept', { onDemand: true });
      service.set(at('i.txt'), 'up-to-date', { onDemand: true });
      service.set(synced, 'up-to-date', { kind: 'folder' });
      harness = new NautilusHarness(extension, env);
      const share = 'Copy share link';
      expect(await harness.labels([at('Docs')])).toEqual([
        share,
        'Stop syncing this folder',
        'Show in mch-sync',
      ]);
      expect(await harness.labels([at('Old')])).toEqual([share, 'Sync this folder', 'Show in mch-sync']);
      expect(await harness.labels([synced])).toEqual([share, 'Show in mch-sync']);
      expect(await harness.labels([at('e.txt')])).toEqual([
        share,
        'Why is this not synced?',
        'Show in mch-sync',
      ]);
      expect(await harness.labels([at('f.txt')])).toEqual([
        share,
        'Why is this not synced?',
        'Show in mch-sync',
      ]);
      expect(await harness.labels([at('g.txt')])).toEqual([share, 'Keep on this device', 'Show in mch-sync']);
      expect(await harness.labels([at('h.txt')])).toEqual([share, 'Free up space', 'Show in mch-sync']);
      expect(await harness.labels([at('i.txt'), at('h.txt')])).toEqual([share, 'Free up space']);
      expect(await harness.labels([at('i.txt'), at('g.txt')])).toEqual([share, 'Keep on this device']);
      expect(await harness.labels([at('Docs'), at('e.txt')])).toEqual([share]);
    });

    it('sends the action to the client and tells the user when it refuses', async () => {
      const service = await serve();
      service.set(at('Docs'), 'up-to-date', { kind: 'folder' });
      harness = new NautilusHarness(extension, env);
      await harness.activate('Stop syncing this folder', [at('Docs')]);
      await poll(() => Promise.resolve(service.requestsOf('act'))).toEqual([
        { id: 1, op: 'act', action: 'exclude', paths: [at('Docs')] },
      ]);

      service.actReply = () => ({
        code: 'STATE_NO_WINDOW',
        message: 'mch-sync run has no window: start mch-sync ui.',
      });
      rmSync(notified, { force: true });
      await harness.activate('Show in mch-sync', [at('Docs')]);
      await poll(() => Promise.resolve(existsSync(notified))).toBe(true);
      const recorded = JSON.parse(readFileSync(notified, 'utf8')) as { argv: string[] };
      expect(recorded.argv.at(-1)).toBe('mch-sync run has no window: start mch-sync ui.');
    });
  },
);
