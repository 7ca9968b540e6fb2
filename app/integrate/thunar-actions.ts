// Thunar's custom action in `~/.config/Thunar/uca.xml`, merged by text surgery that keeps every byte of the other actions.
import { STATE_ENTRIES, type EntryDescription } from './entry-description.ts';
import { IntegrateError } from './integrate-errors.ts';
import { shellWord, xmlText } from './quoting.ts';

/** What Thunar itself writes for a file without actions; a new `uca.xml` starts from it. */
export const EMPTY_UCA_XML = '<?xml version="1.0" encoding="UTF-8"?>\n<actions>\n</actions>\n';

const ALL_TYPES = ['directories', 'audio-files', 'image-files', 'other-files', 'text-files', 'video-files'];

/**
 * Our `<action>` blocks, laid out exactly as Thunar saves one (thunar-uca-model.c,
 * thunar_uca_model_save), so that Thunar rewriting the file after an edit of its own actions leaves
 * them as they were: "Copy share link" (unique-id `uniqueId`), then, with a command that can run
 * `mch-sync act`, the entries by sync state in an "mch-sync" submenu (`uniqueId:pin`…; Thunar 4.18
 * and later show submenus, older ones list them flat). Thunar cannot know an item's state: each entry
 * is offered on every item (the folder ones on folders only) and the running client answers. Thunar
 * expands `%F` to the paths, each g_shell_quote'd, `%%` to `%`, and runs the line with `/bin/sh -c`:
 * the command words are single-quoted for sh, then XML-escaped. The blocks are one run of lines.
 */
export function renderThunarAction(description: EntryDescription, uniqueId: string): string {
  const act = description.actCommand;
  const share = actionBlock({
    icon: description.iconName,
    name: description.label,
    submenu: '',
    uniqueId,
    command: description.command,
    tip: description.tooltip,
    types: ALL_TYPES,
  });
  const states = (act === undefined ? [] : STATE_ENTRIES).map(({ action, label, tip }) =>
    actionBlock({
      icon: '',
      name: label,
      submenu: 'mch-sync',
      uniqueId: `${uniqueId}:${action}`,
      command: [...(act ?? []), action],
      tip,
      types: action === 'include' || action === 'exclude' ? ['directories'] : ALL_TYPES,
    }),
  );
  return [share, ...states].join('\n');
}

function actionBlock(action: {
  icon: string;
  name: string;
  submenu: string;
  uniqueId: string;
  command: readonly string[];
  tip: string;
  types: readonly string[];
}): string {
  const command = [...action.command.map((word) => shellWord(word.replaceAll('%', '%%'))), '%F'].join(' ');
  return [
    '<action>',
    `\t<icon>${xmlText(action.icon)}</icon>`,
    `\t<name>${xmlText(action.name)}</name>`,
    `\t<submenu>${xmlText(action.submenu)}</submenu>`,
    `\t<unique-id>${xmlText(action.uniqueId)}</unique-id>`,
    `\t<command>${xmlText(command)}</command>`,
    `\t<description>${xmlText(action.tip)}</description>`,
    '\t<range></range>',
    '\t<patterns>*</patterns>',
    ...action.types.map((type) => `\t<${type}/>`),
    '</action>',
  ].join('\n');
}

/** Ours: the share action's id, or one of the state entries' (`<id>:<action>`). */
function isOurs(block: ActionBlock, uniqueId: string): boolean {
  return block.uniqueId === uniqueId || (block.uniqueId?.startsWith(`${uniqueId}:`) ?? false);
}

/** Our blocks, and how many of them from the first stand together as one run of lines. */
function oursIn(text: string, uniqueId: string, path: string): { ours: ActionBlock[]; run: number } {
  const { blocks } = scan(text, path);
  const ours = blocks.filter((block) => isOurs(block, uniqueId));
  let run = ours.length === 0 ? 0 : 1;
  while (run < ours.length && text.slice(ours[run - 1]!.end, ours[run]!.start) === '\n') run += 1;
  return { ours, run };
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

/** Our blocks as they are in the file: the run of lines from the first of ours, or undefined. */
export function findThunarAction(text: string, uniqueId: string, path: string): string | undefined {
  const { ours, run } = oursIn(text, uniqueId, path);
  return run === 0 ? undefined : text.slice(ours[0]!.start, ours[run - 1]!.end);
}

/** How many share actions of ours the file holds (more than one only when copied by hand). */
export function countThunarActions(text: string, uniqueId: string, path: string): number {
  return scan(text, path).blocks.filter((block) => block.uniqueId === uniqueId).length;
}

/**
 * `text` with our blocks in it, once: the run of ours from the first is replaced in place (others
 * removed), else the blocks and a newline go in just before `</actions>` (at the start of its line
 * when only blanks precede it there), so that removing them gives back the original bytes.
 */
export function mergeThunarAction(text: string, block: string, uniqueId: string, path: string): string {
  const { closing } = scan(text, path);
  const { ours, run } = oursIn(text, uniqueId, path);
  const first = ours[0];
  const last = ours[run - 1];
  if (first === undefined || last === undefined) {
    const lineStart = text.lastIndexOf('\n', closing - 1) + 1;
    const at = /^[ \t]*$/.test(text.slice(lineStart, closing)) ? lineStart : closing;
    return `${text.slice(0, at)}${block}\n${text.slice(at)}`;
  }
  // The others all come after the run: cut from the end, the run's place does not move.
  let result = text;
  for (const other of ours.slice(run).reverse()) result = cut(result, other);
  return `${result.slice(0, first.start)}${block}${result.slice(last.end)}`;
}

/** `text` without any block of ours; every other byte stays. */
export function removeThunarAction(text: string, uniqueId: string, path: string): string {
  const ours = scan(text, path).blocks.filter((block) => isOurs(block, uniqueId));
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
