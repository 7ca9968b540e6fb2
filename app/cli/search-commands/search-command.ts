// `mch-sync search TEXT`: the files on the device whose name or photo metadata holds the text, with where each one is.
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { ItemPlaces } from '../../search/item-places.ts';
import { SearchError } from '../../search/search-errors.ts';
import { checkLimit, checkQuery, MAX_TEXT_LIMIT, searchFiles } from '../../search/text-search.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { openDeviceSession } from '../account-commands/device-session.ts';
import { withDeviceAdvice } from '../terminal/device-failures.ts';
import {
  highlightStyleFor,
  matchLines,
  rejectedWarning,
  searchJson,
  searchSummary,
} from './search-output.ts';

type Values = Record<string, string | boolean | undefined>;

export const SEARCH_USAGE = `Usage: mch-sync [--profile DIR] search TEXT... [--limit N] [--all] [--json]

Searches your files on the device: their names, types and extensions, and the camera make, model
and date of photos. A file matches when every word occurs in one of these, in any case; "quoted
words" stay together. Each match shows its path on the device with the matched text marked, where
it is on this computer when it is in a synced folder ("not synced here" otherwise), and what else
matched (camera make: [Canon]). Name matches come first.

Options:
  --limit N            matches per page, 1-1000 (default: the device's, 20)
  --all                every page, not only the first
  --page-token TOKEN   the page after the one whose --json output gave this token
  --json               machine-readable output (below)
  -h, --help           show this help

Matches are marked in bold reverse video on a terminal, and [in brackets] when the output is not a
terminal or NO_COLOR is set. Control characters in names are shown as \\uXXXX. A text that starts
with - goes after --: mch-sync search -- -draft

--json prints {query, matches, pageToken, rejected}: each match is {id, name, devicePath,
localPath, isFolder, mimeType, size, mTime, fragments}, devicePath and localPath null when unknown
or not synced; each fragment is {field, text, locations}, field one of name, mimeType, extension,
cameraMake, cameraModel, date (null for another string), locations the marked ranges [{index,
length}] in UTF-16 code units of text. pageToken is "" after the last page. rejected lists the items
the device answered with names this client refuses: [{id, name, code, message}].

Exit codes: 0 searched (also when nothing matched), 1 failed, 2 usage error.`;

export async function runSearch(context: CommandContext, values: Values, words: string[]): Promise<number> {
  const query = words.join(' ');
  const limit = readLimit(values, SEARCH_USAGE);
  const pageToken = values['page-token'] as string | undefined;
  usageChecked(SEARCH_USAGE, () => {
    checkQuery(query);
    checkLimit(limit, MAX_TEXT_LIMIT);
  });
  if (pageToken === '')
    throw new UsageError('--page-token needs the token of an earlier page.', SEARCH_USAGE);
  const { client } = await openDeviceSession(context);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const places = new ItemPlaces({ pairs, client });
  try {
    const result = await withDeviceAdvice('search the device', () =>
      searchFiles(client, places, query, {
        limit,
        allPages: values['all'] === true,
        pageToken,
        signal: context.deps.signal,
      }),
    );
    if (values['json'] === true) {
      context.print(JSON.stringify(searchJson(result), null, 2));
      return 0;
    }
    const style = highlightStyleFor(context.deps);
    for (const match of result.matches) {
      // matchLines escapes every name and adds the marks of its style.
      for (const line of matchLines(match, style)) context.printStyled(line);
      context.print();
    }
    context.print(searchSummary(result));
    const warning = rejectedWarning(result.rejected, 'match');
    if (warning !== undefined) context.warn(warning);
    return 0;
  } finally {
    places.close();
  }
}

/** `--limit N` as a number (checked by the caller's rules); undefined when not given. */
export function readLimit(values: Values, usage: string): number | undefined {
  const text = values['limit'] as string | undefined;
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text))
    throw new UsageError(`--limit takes a whole number, not ${JSON.stringify(text)}.`, usage);
  return Number(text);
}

/** Runs the checks of a search's input; what they refuse is a usage error (exit 2), nothing is sent. */
export function usageChecked<T>(usage: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof SearchError) throw new UsageError(error.message, usage);
    throw error;
  }
}
