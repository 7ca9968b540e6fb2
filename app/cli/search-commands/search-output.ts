// What `mch-sync search` prints: one block per match with the matched text marked, or the documented JSON.
import type { RejectedItem } from '../../api/device-client.ts';
import {
  renderSegments,
  segmentsOf,
  type HighlightStyle,
  type TextLocation,
} from '../../search/highlight.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { FragmentField, SearchMatch, TextSearchResult } from '../../search/text-search.ts';
import type { CliDependencies } from '../terminal/cli-context.ts';

/** `search --json` (documented in SEARCH_USAGE and app/search/README.md). */
export interface SearchJson {
  query: string;
  matches: Array<{
    id: string;
    name: string;
    /** Null when a folder above the file could not be read. */
    devicePath: string | null;
    /** Null when the file is in no folder synced on this computer. */
    localPath: string | null;
    isFolder: boolean;
    mimeType: string;
    size: number;
    /** ISO 8601 UTC, null when the device gave none. */
    mTime: string | null;
    fragments: Array<{
      field: FragmentField | null;
      text: string;
      /** The marked ranges: UTF-16 code units of `text`, in order, never overlapping or touching. */
      locations: TextLocation[];
    }>;
  }>;
  /** "" after the last page; else what `--page-token` takes to go on. */
  pageToken: string;
  rejected: RejectedJson[];
}

export interface RejectedJson {
  id: string | null;
  name: string | null;
  code: string;
  message: string;
}

/**
 * Marks on a terminal; brackets on a pipe or file, and where NO_COLOR (no-color.org) asks for plain
 * text or TERM=dumb says the terminal knows no escapes.
 */
export function highlightStyleFor(deps: CliDependencies): HighlightStyle {
  const plain = (deps.env['NO_COLOR'] ?? '') !== '' || deps.env['TERM'] === 'dumb';
  return deps.terminal !== undefined && !plain ? 'ansi' : 'brackets';
}

export function searchJson(result: TextSearchResult): SearchJson {
  return {
    query: result.query,
    matches: result.matches.map(({ file, fragments, devicePath, localPath }) => ({
      id: file.id,
      name: file.name,
      devicePath: devicePath ?? null,
      localPath: localPath ?? null,
      isFolder: file.isFolder,
      mimeType: file.mimeType,
      size: file.size,
      mTime: file.mTime ?? null,
      fragments: fragments.map(({ field, text, locations }) => ({ field: field ?? null, text, locations })),
    })),
    pageToken: result.pageToken,
    rejected: rejectedJson(result.rejected),
  };
}

export function rejectedJson(rejected: readonly RejectedItem[]): RejectedJson[] {
  return rejected.map(({ id, name, error }) => ({
    id: id ?? null,
    name: name ?? null,
    code: error.code,
    message: error.message,
  }));
}

const FIELD_LABELS: Record<FragmentField, string> = {
  name: 'name',
  mimeType: 'type',
  extension: 'extension',
  cameraMake: 'camera make',
  cameraModel: 'camera model',
  date: 'taken',
};

/**
 * One block: the device path with the name's matches marked, where the file is here, then every other
 * fragment with what it is (`camera make: [Canon]`).
 */
export function matchLines(match: SearchMatch, style: HighlightStyle): string[] {
  const mark = (text: string, locations: readonly TextLocation[]): string =>
    renderSegments(segmentsOf(text, locations), style);
  const nameFragment = match.fragments.find((fragment) => fragment.field === 'name');
  const name = mark(match.file.name, nameFragment?.locations ?? []);
  const { devicePath } = match;
  // ItemPlaces ends a device path with the file's name; anything else is printed as it is.
  const path =
    devicePath === undefined
      ? `(place on the device unknown: a folder above it could not be read) ${name}`
      : devicePath.endsWith(`/${match.file.name}`)
        ? `${terminalSafe(devicePath.slice(0, devicePath.length - match.file.name.length))}${name}`
        : terminalSafe(devicePath);
  const lines = [path];
  lines.push(`  local: ${match.localPath === undefined ? 'not synced here' : terminalSafe(match.localPath)}`);
  for (const fragment of match.fragments) {
    if (fragment === nameFragment) continue;
    const label = fragment.field === undefined ? 'matched' : FIELD_LABELS[fragment.field];
    lines.push(`  ${label}: ${mark(fragment.text, fragment.locations)}`);
  }
  return lines;
}

/** The last line: how many, and how to see more. */
export function searchSummary(result: TextSearchResult): string {
  const count = result.matches.length;
  if (result.pageToken !== '') {
    return `${plural(count, 'match', 'matches')} shown; the device has more: add --all to list them all.`;
  }
  return count === 0
    ? `No matches for ${JSON.stringify(result.query)}.`
    : `${plural(count, 'match', 'matches')}.`;
}

/** The warning about items left out, or undefined when there are none. */
export function rejectedWarning(rejected: readonly RejectedItem[], what: string): string | undefined {
  if (rejected.length === 0) return undefined;
  const examples = rejected
    .slice(0, 3)
    .map(({ error }) => terminalSafe(error.message))
    .join(' ');
  const others = rejected.length > 3 ? ` (and ${rejected.length - 3} more)` : '';
  const renamable = rejected.some(({ error }) => error.code === 'INVALID_NAME');
  const advice = renamable ? ' Rename such items on the device (with another app) to see them here.' : '';
  return (
    `${plural(rejected.length, what, `${what}s`)} left out: the device sent names or entries this client ` +
    `cannot use. ${examples}${others}${advice}`
  );
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
