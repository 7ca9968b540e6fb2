// Each entry's command line launched as its file manager launches it: odd file names must arrive as single, exact arguments.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEntry, entryStem } from '../../../../app/integrate/entry-description.ts';
import { renderKdeServiceMenu } from '../../../../app/integrate/kde-service-menu.ts';
import { renderNemoAction } from '../../../../app/integrate/nemo-action.ts';
import {
  EMPTY_UCA_XML,
  mergeThunarAction,
  renderThunarAction,
} from '../../../../app/integrate/thunar-actions.ts';
import { HELPER_DIR, missingGi, runPython } from '../../../helpers/python-gi.ts';

const work = mkdtempSync(join(tmpdir(), 'mch-integrate-exec-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The recorder sits in a folder whose name needs quoting in every format. (Not a `%`: GLib looks
// for the program of an Exec line before it expands `%%`, and would refuse the desktop file.)
const recorderDir = join(work, `bin "x" it's $HOME`);
mkdirSync(recorderDir);
const recorder = join(recorderDir, 'record argv');
copyFileSync(join(HELPER_DIR, 'argv-recorder.py'), recorder);

const filesDir = join(work, 'Files ✓');
mkdirSync(filesDir);
const FILES = ['report 2024 "final".pdf', "it's $HOME `x`.txt", 'Résumé ✓.odt', 'back\\slash %F 100%.md'].map(
  (name) => join(filesDir, name),
);
for (const path of FILES) writeFileSync(path, 'x');

// A fixed word with characters each format must escape, before the share words.
// (A backslash before `$` and at the end tell a missing escape from a harmless one.)
const EXTRA = 'a word with $HOME, \\$HOME, `x`, "quotes", 100% %F and a backslash\\';
const description = describeEntry({ baseCommand: [recorder, EXTRA], profileDir: work, defaultProfile: true });
const EXPECTED = [EXTRA, 'share', '--copy', '--notify', ...FILES];

let launches = 0;

/** Launches the entry in `file` with entry-launcher.py's `mode`; what the recorder got, and any argv GLib parsed. */
function launch(mode: string, file: string): { recorded: string[]; parsed: string[] | null } {
  launches += 1;
  const recordTo = join(work, `record-${launches}.json`);
  const run = runPython([
    join(HELPER_DIR, 'entry-launcher.py'),
    mode,
    file,
    recordTo,
    entryStem(description),
    ...FILES,
  ]);
  if (run.status !== 0) throw new Error(`entry-launcher.py ${mode} failed:\n${run.stderr}\n${run.stdout}`);
  return JSON.parse(run.stdout) as { recorded: string[]; parsed: string[] | null };
}

function entryFile(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

describe.skipIf(missingGi() !== undefined)(
  `exec quoting, launched for real (${missingGi() ?? 'gi found'})`,
  () => {
    it('the KDE service menu, its Exec launched by GLib as a desktop file with the files', () => {
      const file = entryFile('kde.desktop', renderKdeServiceMenu(description));
      expect(launch('kde', file).recorded).toEqual(EXPECTED);
    });

    it('the Nemo action, its Exec launched by GLib as a desktop file with the files', () => {
      const file = entryFile('share.nemo_action', renderNemoAction(description));
      expect(launch('nemo-desktop', file).recorded).toEqual(EXPECTED);
    });

    it('the Nemo action, expanded as Nemo does with Quote=double and run by g_spawn_command_line_async', () => {
      const file = entryFile('share-nemo.nemo_action', renderNemoAction(description));
      const result = launch('nemo', file);
      expect(result.parsed).toEqual([recorder, ...EXPECTED]);
      expect(result.recorded).toEqual(EXPECTED);
    });

    it('the Thunar action, expanded as Thunar does (g_shell_quote per path) and run by /bin/sh -c', () => {
      const stem = entryStem(description);
      const file = entryFile(
        'uca.xml',
        mergeThunarAction(EMPTY_UCA_XML, renderThunarAction(description, stem), stem, 'uca.xml'),
      );
      const result = launch('thunar', file);
      expect(result.parsed).toEqual([recorder, ...EXPECTED]);
      expect(result.recorded).toEqual(EXPECTED);
    });
  },
);
