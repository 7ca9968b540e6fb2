// Thunar's custom action in `~/.config/Thunar/uca.xml`, merged by text surgery that keeps every byte of the other actions.
import type { EntryDescription } from './entry-description.ts';
import { IntegrateError } from './integrate-errors.ts';
import { shellWord, xmlText } from './quoting.ts';

/** What Thunar itself writes for a file without actions; a new `uca.xml` starts from it. */
export const EMPTY_UCA_XML = '<?xml version="1.0" encoding="UTF-8"?>\n<actions>\n</actions>\n';

/**
 * Our `<action>` block, laid out exactly as Thunar saves one (thunar-uca-model.c,
 * thunar_uca_model_save), so that Thunar rewriting the file after an edit of its own actions leaves
 * the block as it was. Thunar expands `%F` to the paths, each g_shell_quote'd, `%%` to `%`, and runs
 * the line with `/bin/sh -c`: the command words are single-quoted for sh, then XML-escaped.
 */
export function renderThunarAction(description: EntryDescription, uniqueId: string): string {
  const command = [...description.command.map((word) => shellWord(word.replaceAll('%', '%%'))), '%F'].join(
    ' ',
  );
  const types = ['directories', 'audio-files', 'image-files', 'other-files', 'text-files', 'video-files'];
  return [
    '<action>',
    `\t<icon>${xmlText(description.iconName)}</icon>`,
    `\t<name>${xmlText(description.label)}</name>`,
    '\t<submenu></submenu>',
    `\t<unique-id>${xmlText(uniqueId)}</unique-id>`,
    `\t<command>${xmlText(command)}</command>`,
    `\t<description>${xmlText(description.tooltip)}</description>`,
    '\t<range></range>',
    '\t<patterns>*</patterns>',
    ...types.map((type) => `\t<${type}/>`),
    '</action>',
  ].join('\n');
}

/** Where one `<action>…</action>` block is in the file's text, and its `<unique-id>`. */
interface ActionBlock {
  start: number;
  end: number;
  uniqueId: string | undefined;
}

// Comments and CDATA are skipped whole: an action commented out by hand is not an action.
const SKIPPED = String.raw`<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>`;

/** The action blocks of `text` and where its closing `</actions>` is; refuses text it cannot read safely. */
function scan(text: string, path: string): { blocks: ActionBlock[]; closing: number } {
  const blocks: ActionBlock[] = [];
  let closing = -1;
  const tokens = new RegExp(`${SKIPPED}|<action(?=[\\s/>])[^>]*>|</actions\\s*>`, 'g');
  for (let match = tokens.exec(text); match !== null; match = tokens.exec(text)) {
    const token = match[0];
    if (token.startsWith('<!')) continue;
    if (token.startsWith('</actions')) {
      closing = match.index;
      continue;
    }
    if (token.endsWith('/>')) continue;
    const ends = new RegExp(`${SKIPPED}|</action\\s*>`, 'g');
    ends.lastIndex = tokens.lastIndex;
    let end: RegExpExecArray | null = ends.exec(text);
    while (end !== null && end[0].startsWith('<!')) end = ends.exec(text);
    if (end === null) throw invalid(path, `an <action> at character ${match.index + 1} is not closed`);
    const content = text.slice(tokens.lastIndex, end.index);
    const id = /<unique-id>([\s\S]*?)<\/unique-id>/.exec(content.replace(new RegExp(SKIPPED, 'g'), ''));
    blocks.push({ start: match.index, end: ends.lastIndex, uniqueId: id?.[1]?.trim() });
    tokens.lastIndex = ends.lastIndex;
  }
  if (closing < 0) throw invalid(path, 'it has no closing </actions>');
  if (blocks.some((block) => block.start > closing)) throw invalid(path, 'an <action> follows </actions>');
  return { blocks, closing };
}

function invalid(path: string, why: string): IntegrateError {
  return new IntegrateError(
    'INTEGRATION_FILE_INVALID',
    `${path} was left unchanged: ${why}. Fix it (or move it away to start a new one) and run the command again.`,
  );
}

/** Our block as it is in the file (the first, when a copy was made by hand), or undefined. */
export function findThunarAction(text: string, uniqueId: string, path: string): string | undefined {
  const ours = scan(text, path).blocks.find((block) => block.uniqueId === uniqueId);
  return ours === undefined ? undefined : text.slice(ours.start, ours.end);
}

/** How many of our blocks the file holds (more than one only when copied by hand). */
export function countThunarActions(text: string, uniqueId: string, path: string): number {
  return scan(text, path).blocks.filter((block) => block.uniqueId === uniqueId).length;
}

/**
 * `text` with our block in it, once: the first block with our unique-id is replaced in place (other
 * copies removed), else the block and a newline go in just before `</actions>` (at the start of its
 * line when only blanks precede it there), so that removing it gives back the original bytes.
 */
export function mergeThunarAction(text: string, block: string, uniqueId: string, path: string): string {
  const { blocks, closing } = scan(text, path);
  const ours = blocks.filter((candidate) => candidate.uniqueId === uniqueId);
  const [first, ...copies] = ours;
  if (first === undefined) {
    const lineStart = text.lastIndexOf('\n', closing - 1) + 1;
    const at = /^[ \t]*$/.test(text.slice(lineStart, closing)) ? lineStart : closing;
    return `${text.slice(0, at)}${block}\n${text.slice(at)}`;
  }
  let result = text;
  for (const copy of copies.reverse()) result = cut(result, copy);
  return `${result.slice(0, first.start)}${block}${result.slice(first.end)}`;
}

/** `text` without any block of ours; every other byte stays. */
export function removeThunarAction(text: string, uniqueId: string, path: string): string {
  const ours = scan(text, path).blocks.filter((block) => block.uniqueId === uniqueId);
  let result = text;
  for (const block of ours.reverse()) result = cut(result, block);
  return result;
}

/**
 * Removes a block: its whole lines when it stands alone on them (so no blank line is left behind),
 * else the block and the newline right after it, which undoes an insertion before `</actions>`.
 */
function cut(text: string, block: ActionBlock): string {
  const lineStart = text.lastIndexOf('\n', block.start - 1) + 1;
  const after = /^[ \t]*(\n|$)/.exec(text.slice(block.end));
  if (after !== null && /^[ \t]*$/.test(text.slice(lineStart, block.start))) {
    return text.slice(0, lineStart) + text.slice(block.end + after[0].length);
  }
  const newline = text[block.end] === '\n' ? 1 : 0;
  return text.slice(0, block.start) + text.slice(block.end + newline);
}
