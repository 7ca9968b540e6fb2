// The generated entries: each format's golden file, and the key files as GLib's own parser reads them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryStem } from '../../../../app/integrate/entry-description.ts';
import { renderKdeServiceMenu } from '../../../../app/integrate/kde-service-menu.ts';
import { NEMO_PYTHON_PLUGINS, renderNemoAction } from '../../../../app/integrate/nemo-action.ts';
import { renderPythonExtension } from '../../../../app/integrate/python-extension.ts';
import {
  EMPTY_UCA_XML,
  mergeThunarAction,
  renderThunarAction,
} from '../../../../app/integrate/thunar-actions.ts';
import { missingGi, pythonJson } from '../../../helpers/python-gi.ts';
import { expectGolden, GOLDEN_DESCRIPTION, GOLDEN_PROFILE } from './golden-files.ts';

const work = mkdtempSync(join(tmpdir(), 'mch-integrate-formats-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const stem = entryStem(GOLDEN_DESCRIPTION);

describe('the generated entries match their golden files', () => {
  it.each(['nautilus', 'nemo', 'caja'] as const)('the %s python extension', (manager) => {
    expectGolden(`${manager}-extension.py`, renderPythonExtension(GOLDEN_DESCRIPTION, manager));
  });

  it('the Nemo action', () => {
    expectGolden('nemo-action.nemo_action', renderNemoAction(GOLDEN_DESCRIPTION));
  });

  it('the KDE service menu', () => {
    expectGolden('kde-service-menu.desktop', renderKdeServiceMenu(GOLDEN_DESCRIPTION));
  });

  it('a new Thunar uca.xml holding our action', () => {
    const block = renderThunarAction(GOLDEN_DESCRIPTION, stem);
    expectGolden('thunar-uca.xml', mergeThunarAction(EMPTY_UCA_XML, block, stem, 'uca.xml'));
  });

  it('names files and the Thunar id after a short key of a profile other than the default', () => {
    expect(stem).toMatch(/^mch-sync-share-[0-9a-f]{8}$/);
    expect(GOLDEN_DESCRIPTION.profileKey).toBe(stem.slice('mch-sync-share-'.length));
  });
});

interface KeyFileDump {
  groups: string[];
  values: Record<string, Record<string, string>>;
  lists: Record<string, Record<string, string[]>>;
}

// Every key with its string value (escapes undone), and the list keys split as GLib splits them.
const DUMP_KEY_FILE = `
import json, sys
import gi
gi.require_version("GLib", "2.0")
from gi.repository import GLib
key_file = GLib.KeyFile()
key_file.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
lists = set(sys.argv[2:])
dump = {"groups": key_file.get_groups()[0], "values": {}, "lists": {}}
for group in dump["groups"]:
    keys = key_file.get_keys(group)[0]
    dump["values"][group] = {key: key_file.get_string(group, key) for key in keys}
    dump["lists"][group] = {key: key_file.get_string_list(group, key) for key in keys if key in lists}
print(json.dumps(dump))
`;

function parseKeyFile(name: string, text: string, listKeys: string[]): KeyFileDump {
  const path = join(work, name);
  writeFileSync(path, text);
  return pythonJson<KeyFileDump>(DUMP_KEY_FILE, [path, ...listKeys]);
}

const EXPECTED_EXEC =
  String.raw`"/opt/My Apps/mch \"sync\"/node" "/opt/My Apps/mch-sync/bin/mch-sync.js"` +
  String.raw` --profile "/home/alice/mch profiles/it's 100%% \"work\" \$HOME ✓"` +
  ' share --copy --notify %F';

describe.skipIf(missingGi() !== undefined)(
  `the key files, read by GLib's parser (${missingGi() ?? 'gi found'})`,
  () => {
    it('the KDE service menu: a service for every local file and folder, the entries by state in a submenu', () => {
      const dump = parseKeyFile('menu.desktop', renderKdeServiceMenu(GOLDEN_DESCRIPTION), [
        'MimeType',
        'Actions',
      ]);
      const states = ['Pin', 'Free', 'Include', 'Exclude', 'Why', 'Show'].map((name) => `mchSync${name}`);
      expect(dump.groups).toEqual([
        'Desktop Entry',
        'Desktop Action mchSyncShare',
        ...states.map((name) => `Desktop Action ${name}`),
      ]);
      expect(dump.values['Desktop Entry']).toMatchObject({
        Type: 'Service',
        'X-KDE-Protocols': 'file',
        'X-KDE-ServiceTypes': 'KonqPopupMenu/Plugin',
        'X-KDE-Priority': 'TopLevel',
        'X-KDE-Submenu': 'mch-sync',
      });
      expect(dump.lists['Desktop Entry']).toEqual({
        MimeType: ['all/all'],
        Actions: ['mchSyncShare', ...states],
      });
      expect(dump.values['Desktop Action mchSyncShare']).toEqual({
        Name: 'Copy share link',
        Icon: 'insert-link',
        Exec: EXPECTED_EXEC,
      });
      expect(dump.values['Desktop Action mchSyncExclude']).toEqual({
        Name: 'Stop syncing this folder',
        Exec: EXPECTED_EXEC.replace(' share --copy --notify %F', ' act --notify exclude %F'),
      });
    });

    it('the KDE service menu of the desktop app: "Copy share link" alone, its command can do nothing else', () => {
      const app = {
        ...GOLDEN_DESCRIPTION,
        command: ['/opt/MCH Sync/mch-sync', '--share'],
        actCommand: undefined,
      };
      const dump = parseKeyFile('app.desktop', renderKdeServiceMenu(app), ['MimeType', 'Actions']);
      expect(dump.groups).toEqual(['Desktop Entry', 'Desktop Action mchSyncShare']);
      expect(dump.values['Desktop Entry']?.['X-KDE-Submenu']).toBeUndefined();
    });

    it('the Nemo action: any local selection, double quotes, hidden where nemo-python is installed', () => {
      const dump = parseKeyFile('share.nemo_action', renderNemoAction(GOLDEN_DESCRIPTION), [
        'Extensions',
        'Dependencies',
      ]);
      expect(dump.groups).toEqual(['Nemo Action']);
      expect(dump.values['Nemo Action']).toMatchObject({
        Name: 'Copy share link',
        Comment: `Copy a link to the selected items to the clipboard (profile ${GOLDEN_PROFILE.replace('%', '%%')})`,
        Exec: EXPECTED_EXEC,
        'Icon-Name': 'insert-link',
        Selection: 'notnone',
        Quote: 'double',
        UriScheme: 'file',
      });
      expect(dump.lists['Nemo Action']?.['Extensions']).toEqual(['any']);
      expect(dump.lists['Nemo Action']?.['Dependencies']).toEqual(
        NEMO_PYTHON_PLUGINS.map((path) => `!${path}`),
      );
      expect(NEMO_PYTHON_PLUGINS).toContain(
        '/usr/lib/x86_64-linux-gnu/nemo/extensions-3.0/libnemo-python.so',
      );
    });
  },
);
