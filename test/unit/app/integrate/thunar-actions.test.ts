// Merging our action into Thunar's shared uca.xml: every foreign byte kept, ours once, removal gives the original back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryStem } from '../../../../app/integrate/entry-description.ts';
import { IntegrateError } from '../../../../app/integrate/integrate-errors.ts';
import {
  countThunarActions,
  findThunarAction,
  mergeThunarAction,
  removeThunarAction,
  renderThunarAction,
} from '../../../../app/integrate/thunar-actions.ts';
import { missingGi, pythonJson } from '../../../helpers/python-gi.ts';
import { GOLDEN_DESCRIPTION } from './golden-files.ts';

const ID = entryStem(GOLDEN_DESCRIPTION);
const BLOCK = renderThunarAction(GOLDEN_DESCRIPTION, ID);
const PATH = '/home/alice/.config/Thunar/uca.xml';

/** A hand-edited file: a foreign action with odd whitespace, comments (one holding an action of ours), CRLF. */
const FOREIGN = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!-- my actions, keep them -->',
  '<actions>',
  '  <action   >',
  '\t\t<icon>utilities-terminal</icon>   <name>Open Terminal Here</name>',
  '    <unique-id>1700000000000000-1</unique-id>\r',
  '  <command>exo-open --working-directory %f --launch TerminalEmulator</command>',
  '',
  '    <description>Example for a custom action</description>',
  '<patterns>*</patterns><startup-notify/><directories/>',
  '  </action>',
  `  <!-- an old copy, commented out: <action><unique-id>${ID}</unique-id></action> -->`,
  '    </actions>   ',
  '',
].join('\n');

const merge = (text: string): string => mergeThunarAction(text, BLOCK, ID, PATH);
const remove = (text: string): string => removeThunarAction(text, ID, PATH);

describe('the Thunar action merge', () => {
  it('adds ours once before </actions> and keeps every foreign byte around it', () => {
    const merged = merge(FOREIGN);
    const at = merged.indexOf(BLOCK);
    expect(at).toBeGreaterThan(0);
    expect(merged.slice(0, at) + merged.slice(at + BLOCK.length + 1)).toBe(FOREIGN);
    expect(countThunarActions(merged, ID, PATH)).toBe(1);
    expect(findThunarAction(merged, ID, PATH)).toBe(BLOCK);
  });

  it('changes nothing when merged again', () => {
    const merged = merge(FOREIGN);
    expect(merge(merged)).toBe(merged);
  });

  it('gives back exactly the original bytes when removed', () => {
    expect(remove(merge(FOREIGN))).toBe(FOREIGN);
  });

  it('replaces an outdated action of ours in place and leaves one copy of several', () => {
    const old = BLOCK.replace('share --copy', 'share --old');
    const withCopies = FOREIGN.replace(
      '    </actions>',
      `${old}\n<action><unique-id> ${ID} </unique-id></action>\n    </actions>`,
    );
    expect(countThunarActions(withCopies, ID, PATH)).toBe(2);
    const merged = merge(withCopies);
    expect(countThunarActions(merged, ID, PATH)).toBe(1);
    expect(merged).toBe(merge(FOREIGN));
  });

  it('leaves actions of another profile alone', () => {
    const other = renderThunarAction(GOLDEN_DESCRIPTION, 'mch-sync-share');
    const both = merge(mergeThunarAction(FOREIGN, other, 'mch-sync-share', PATH));
    expect(findThunarAction(remove(both), 'mch-sync-share', PATH)).toBe(other);
  });

  it('round-trips when </actions> shares its line with the last action', () => {
    const oneLine = '<?xml version="1.0"?><actions><action><unique-id>x</unique-id></action></actions>';
    expect(remove(merge(oneLine))).toBe(oneLine);
  });

  it.each([
    ['no </actions>', '<actions><action><unique-id>x</unique-id></action>'],
    ['an unclosed <action>', '<actions><action><unique-id>x</unique-id></actions>'],
    ['an action after </actions>', '<actions></actions><action></action>'],
  ])('refuses a file with %s, unchanged', (_why, text) => {
    expect(() => merge(text)).toThrow(IntegrateError);
    expect(() => remove(text)).toThrow(/was left unchanged/);
  });
});

describe.skipIf(missingGi() !== undefined)('the merged file, read by an XML parser', () => {
  const work = mkdtempSync(join(tmpdir(), 'mch-integrate-uca-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is well-formed and lists the foreign action and ours, the entries by state after it', () => {
    const path = join(work, 'uca.xml');
    writeFileSync(path, merge(FOREIGN));
    const actions = pythonJson<Array<[string, string]>>(
      `import json, sys, xml.etree.ElementTree as ET
print(json.dumps([[a.findtext("unique-id").strip(), a.findtext("name")] for a in ET.parse(sys.argv[1]).getroot().findall("action")]))`,
      [path],
    );
    expect(actions).toEqual([
      ['1700000000000000-1', 'Open Terminal Here'],
      [ID, 'Copy share link'],
      [`${ID}:pin`, 'Keep on this device'],
      [`${ID}:free`, 'Free up space'],
      [`${ID}:include`, 'Sync this folder'],
      [`${ID}:exclude`, 'Stop syncing this folder'],
      [`${ID}:why`, 'Why is this not synced?'],
      [`${ID}:show`, 'Show in mch-sync'],
    ]);
  });
});
