// The nemo- and caja-python extensions `mch-sync integrate --install` writes, run under Debian's python against Nemo 3.0's and Caja 2.0's real introspection data, asking a stand-in state socket.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emblemKeyword, type EmblemName } from '../../../../app/integrate/emblem-icons.ts';
import { describeEntry } from '../../../../app/integrate/entry-description.ts';
import { stateSocketDir } from '../../../../app/file-state/state-socket-path.ts';
import { registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import { cliEnv, runMchSync } from '../../../helpers/mch-sync.ts';
import { NautilusHarness } from '../../../helpers/nautilus-harness.ts';
import { missingGi, type HarnessFileManager } from '../../../helpers/python-gi.ts';
import { StateStandIn } from '../../../helpers/state-stand-in.ts';

const FILE_MANAGERS = ['nemo', 'caja'] as const satisfies readonly HarnessFileManager[];
const skipReasons = Object.fromEntries(
  FILE_MANAGERS.map((fileManager) => [fileManager, missingGi({ fileManager })]),
) as Record<(typeof FILE_MANAGERS)[number], string | undefined>;

const home = mkdtempSync(join(tmpdir(), 'mch-nemo-caja-extension-'));
const profile = join(home, 'profile');
const synced = join(home, 'Cloud');
const data = join(home, 'data');
const description = describeEntry({ baseCommand: [], profileDir: profile, defaultProfile: false });
const emblem = (name: EmblemName): string => emblemKeyword(description, name);
const at = (...parts: string[]): string => join(synced, ...parts);
const poll = <T>(read: () => Promise<T>): ReturnType<typeof expect.poll<T>> =>
  expect.poll(read, { timeout: 10_000, interval: 50 });

beforeAll(async () => {
  if (FILE_MANAGERS.every((fileManager) => skipReasons[fileManager] !== undefined)) return;
  mkdirSync(join(synced, 'Docs'), { recursive: true });
  await registerFolderPair(profile, { localRoot: synced, remoteFolder: '/Cloud' });
  // Installed as a user does it: the extensions land in this HOME's data folder.
  const install = await runMchSync(
    ['--profile', profile, 'integrate', '--install', '--command', '/bin/true'],
    {
      env: cliEnv({ HOME: home, XDG_DATA_HOME: data, XDG_CONFIG_HOME: join(home, 'config') }),
    },
  );
  expect(install.stderr).toBe('');
  expect(install.code).toBe(0);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe.each(FILE_MANAGERS)('the %s-python extension', (fileManager) => {
  const skipReason = skipReasons[fileManager];

  describe.skipIf(skipReason !== undefined)(
    `emblems and actions by state (${skipReason ?? 'typelib found'})`,
    () => {
      let standIn: StateStandIn | undefined;
      let harness: NautilusHarness | undefined;

      afterEach(async () => {
        harness?.close();
        await standIn?.close();
        harness = undefined;
        standIn = undefined;
      });

      async function load(): Promise<{ service: StateStandIn; harness: NautilusHarness }> {
        standIn = await StateStandIn.start(join(stateSocketDir(profile), '4242.sock'), [synced]);
        const extensions = join(data, `${fileManager}-python`, 'extensions');
        const [name] = readdirSync(extensions);
        harness = new NautilusHarness(join(extensions, name ?? ''), process.env, fileManager);
        return { service: standIn, harness };
      }

      it('draws a folder’s emblems from one children answer and redraws an item when its state is pushed', async () => {
        const { service, harness } = await load();
        service.set(at('Docs', 'a.txt'), 'up-to-date');
        service.set(at('Docs', 'b.txt'), 'syncing-up');
        service.set(at('Docs', 'c.txt'), 'conflict');
        service.set(at('Docs', 'd.txt'), 'up-to-date', { shared: true });
        const paths = ['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((name) => at('Docs', name));
        const { emblems } = await harness.show(paths);
        expect(emblems).toEqual({
          [at('Docs', 'a.txt')]: [emblem('up-to-date')],
          [at('Docs', 'b.txt')]: [emblem('syncing')],
          [at('Docs', 'c.txt')]: [emblem('conflict')],
          [at('Docs', 'd.txt')]: [emblem('up-to-date'), emblem('shared')],
        });
        expect(service.requestsOf('children')).toEqual([expect.objectContaining({ path: at('Docs') })]);
        expect(service.requestsOf('state')).toEqual([]);
        await poll(() => Promise.resolve(service.subscribers())).toBe(1);

        service.push([service.set(at('Docs', 'a.txt'), 'waiting')]);
        await poll(async () => (await harness.shown([at('Docs', 'a.txt')])).emblems).toEqual({
          [at('Docs', 'a.txt')]: [emblem('waiting')],
        });
        const after = await harness.shown([at('Docs', 'a.txt'), at('Docs', 'b.txt')]);
        expect(after.invalidated).toEqual({ [at('Docs', 'a.txt')]: 1, [at('Docs', 'b.txt')]: 0 });
        expect(after.history[at('Docs', 'a.txt')]).toEqual([[emblem('up-to-date')], [emblem('waiting')]]);
        expect(service.requestsOf('children')).toHaveLength(1);
      });

      it('shows "Copy share link" and the entries each state allows, and sends the one chosen', async () => {
        const { service, harness } = await load();
        service.set(at('Docs'), 'up-to-date', { kind: 'folder' });
        service.set(at('e.txt'), 'conflict');
        service.set(at('g.txt'), 'online-only', { onDemand: true });
        const share = 'Copy share link';
        expect(await harness.labels([at('Docs')])).toEqual([
          share,
          'Stop syncing this folder',
          'Show in mch-sync',
        ]);
        expect(await harness.labels([at('e.txt')])).toEqual([
          share,
          'Why is this not synced?',
          'Show in mch-sync',
        ]);
        expect(await harness.labels([at('g.txt')])).toEqual([
          share,
          'Keep on this device',
          'Show in mch-sync',
        ]);
        expect(await harness.labels([join(home, 'outside.txt')])).toEqual([]);

        await harness.activate('Stop syncing this folder', [at('Docs')]);
        await poll(() => Promise.resolve(service.requestsOf('act'))).toEqual([
          { id: 1, op: 'act', action: 'exclude', paths: [at('Docs')] },
        ]);
      });
    },
  );
});
