// The nautilus-python extension `mch-sync integrate` installs, run under Debian's python against Nautilus 4.0's real introspection data.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import { cliEnv, runMchSync } from '../../../helpers/mch-sync.ts';
import { HELPER_DIR, missingGi } from '../../../helpers/python-gi.ts';
import { NautilusHarness, type Selected } from '../../../helpers/nautilus-harness.ts';

interface Recorded {
  recorded: { argv: string[]; session: number; stdio: Array<string | null> };
  session: number;
}

const skipReason = missingGi({ nautilus: true });

describe.skipIf(skipReason !== undefined)(
  `the nautilus-python extension (${skipReason ?? 'Nautilus 4.0 found'})`,
  () => {
    let home: string;
    let profile: string;
    let synced: string;
    let outside: string;
    let recorder: string;
    let harness: NautilusHarness;
    let records = 0;

    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), 'mch-nautilus-extension-'));
      profile = join(home, 'profile');
      synced = join(home, 'My Cloud ✓');
      outside = join(home, 'elsewhere');
      for (const dir of [join(synced, 'sub dir'), join(synced, '.mch-sync'), outside])
        mkdirSync(dir, { recursive: true });
      for (const file of ['report 2024 "final".pdf', "it's $HOME `x`.txt", 'sub dir/Résumé ✓.odt']) {
        writeFileSync(join(synced, file), 'x');
      }
      writeFileSync(join(outside, 'other.txt'), 'x');
      symlinkSync(synced, join(home, 'link to cloud'));
      await registerFolderPair(profile, { localRoot: synced, remoteFolder: '/My Cloud' });

      const binDir = join(home, 'rec "bin"');
      mkdirSync(binDir);
      recorder = join(binDir, 'record argv');
      copyFileSync(join(HELPER_DIR, 'argv-recorder.py'), recorder);
      const env = cliEnv({
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        XDG_CONFIG_HOME: join(home, 'config'),
      });
      const install = await runMchSync(
        ['--profile', profile, 'integrate', '--install', '--command', `'${recorder}'`],
        { env },
      );
      expect(install.stderr).toBe('');
      const extensions = join(home, 'data', 'nautilus-python', 'extensions');
      const [name] = readdirSync(extensions);
      harness = new NautilusHarness(join(extensions, name ?? ''));
    });

    afterAll(() => {
      harness?.close();
      if (home !== undefined) rmSync(home, { recursive: true, force: true });
    });

    const at = (...parts: string[]): Selected => ({ path: join(synced, ...parts) });

    it('offers one "Copy share link" item for a file inside the synced folder, in both calling conventions', async () => {
      for (const api of [4, 3] as const) {
        const items = await harness.items([at('report 2024 "final".pdf')], api);
        expect(items).toHaveLength(1);
        expect(items[0]?.label).toBe('Copy share link');
        expect(items[0]?.tip).toContain('Copy a link to the selected items to the clipboard');
      }
    });

    it('offers it for the synced folder itself, a subfolder, and several items inside', async () => {
      expect(await harness.items([{ path: synced }])).toHaveLength(1);
      expect(await harness.items([at('sub dir')])).toHaveLength(1);
      expect(await harness.items([at('sub dir', 'Résumé ✓.odt'), at("it's $HOME `x`.txt")])).toHaveLength(1);
    });

    it('offers it for a file shown through a link to the synced folder', async () => {
      expect(
        await harness.items([{ path: join(home, 'link to cloud', 'report 2024 "final".pdf') }]),
      ).toHaveLength(1);
    });

    it('offers nothing outside synced folders', async () => {
      expect(await harness.items([{ path: join(outside, 'other.txt') }])).toEqual([]);
      expect(await harness.items([{ path: home }])).toEqual([]);
    });

    it('offers nothing inside the .mch-sync state folder', async () => {
      expect(await harness.items([at('.mch-sync')])).toEqual([]);
      expect(await harness.items([at('.mch-sync', 'index.db')])).toEqual([]);
    });

    it('offers nothing for a selection that is partly outside', async () => {
      expect(
        await harness.items([at('report 2024 "final".pdf'), { path: join(outside, 'other.txt') }]),
      ).toEqual([]);
    });

    it('offers nothing for items that are not on this computer, or for no items', async () => {
      expect(await harness.items([{ uri: 'sftp://host/My Cloud/report.pdf' }])).toEqual([]);
      expect(await harness.items([])).toEqual([]);
    });

    it('falls back to the URI of an item without get_location', async () => {
      const uri = `file://${encodeURI(join(synced, 'sub dir', 'Résumé ✓.odt'))}`;
      expect(await harness.items([{ uri_only: uri }])).toHaveLength(1);
      expect(await harness.items([{ uri_only: 'sftp://host/x' }])).toEqual([]);
    });

    it('sees a folder synced later without being loaded again', async () => {
      expect(await harness.items([{ path: join(outside, 'other.txt') }])).toEqual([]);
      await registerFolderPair(profile, { localRoot: outside, remoteFolder: '/elsewhere' });
      expect(await harness.items([{ path: join(outside, 'other.txt') }])).toHaveLength(1);
    });

    it('runs the command with share --copy --notify and the exact path, detached, when activated', async () => {
      records += 1;
      const file = join(synced, 'report 2024 "final".pdf');
      const answer = await harness.ask<Recorded>({
        activate: [{ path: file }],
        record_to: join(home, `record-${records}.json`),
      });
      expect(answer.recorded.argv).toEqual(['--profile', profile, 'share', '--copy', '--notify', file]);
      // Its own session, and nothing of the file manager's terminal or pipes.
      expect(answer.recorded.session).not.toBe(answer.session);
      expect(answer.recorded.stdio).toEqual(['/dev/null', '/dev/null', '/dev/null']);
    });

    it('passes every selected path, in order, as its own argument', async () => {
      records += 1;
      const files = [
        join(synced, "it's $HOME `x`.txt"),
        join(synced, 'sub dir', 'Résumé ✓.odt'),
        join(synced, 'sub dir'),
      ];
      const answer = await harness.ask<Recorded>({
        activate: files.map((path) => ({ path })),
        record_to: join(home, `record-${records}.json`),
      });
      expect(answer.recorded.argv).toEqual(['--profile', profile, 'share', '--copy', '--notify', ...files]);
    });
  },
);
