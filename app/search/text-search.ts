// Text search on the device (device-api.md §3 `filesSearch/text`): a page or all of them, each match with checked fragments and its places.
import { assertNever, BadResponseError } from '../../common/errors.ts';
import type { DeviceClient, RejectedItem, RemoteFile } from '../api/device-client.ts';
import { matchedRanges, type TextLocation } from './highlight.ts';
import { SEARCHED_FIELDS, type SearchedField } from '../../common/wire/device-api.ts';
import type { ItemPlace } from './item-places.ts';
import { SearchError } from './search-errors.ts';

/** device-api.md §3: a text search page holds at most 1000 matches. */
export const MAX_TEXT_LIMIT = 1000;

/** The searched strings (device-api.md §3), in the order the device lists their fragments. */
export const FRAGMENT_FIELDS = SEARCHED_FIELDS;
export type FragmentField = SearchedField;

export interface MatchFragment {
  /** Which of the file's strings this is; undefined when the text equals none of them. */
  field: FragmentField | undefined;
  text: string;
  /** The ranges to mark: the device's locations checked against `text` (`matchedRanges`). */
  locations: TextLocation[];
}

export interface SearchMatch {
  file: RemoteFile;
  fragments: MatchFragment[];
  /** Slash path from the device root; undefined when a folder above it could not be read. */
  devicePath: string | undefined;
  /** The synced copy on this computer; undefined when the file is in no synced folder. */
  localPath: string | undefined;
}

export interface TextSearchResult {
  query: string;
  matches: SearchMatch[];
  /** Items the device answered with a name or shape this client refuses: reported, never hidden. */
  rejected: RejectedItem[];
  /** The token of the next page; "" when the last page was read. */
  pageToken: string;
}

export interface SearchFilesOptions {
  /** Matches per page, 1-1000; the device's default (20) when undefined. */
  limit?: number;
  /** Follow the page tokens to the last page. */
  allPages?: boolean;
  /** Continue a search where an earlier one stopped (its `pageToken`). */
  pageToken?: string;
  signal?: AbortSignal;
}

/** What the search needs of `ItemPlaces`. */
export interface PlaceFinder {
  placeOf(file: RemoteFile, signal?: AbortSignal): Promise<ItemPlace>;
}

/** Throws SEARCH_EMPTY_QUERY for a query without a term (white space and quotes only). */
export function checkQuery(query: string): void {
  // device-api.md §3: quotes only group terms, so `""` holds no term either.
  if (query.replaceAll('"', '').trim() === '') {
    throw new SearchError('SEARCH_EMPTY_QUERY', 'Give a text to search for.');
  }
}

/** Throws SEARCH_BAD_LIMIT unless `limit` is undefined or a whole number from 1 to `max`. */
export function checkLimit(limit: number | undefined, max: number): void {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= max)) {
    throw new SearchError('SEARCH_BAD_LIMIT', `The limit must be a whole number from 1 to ${max}.`);
  }
}

/**
 * Searches names and image metadata. One page unless `allPages`; a page token the device hands out
 * twice ends the search with BAD_RESPONSE (as `listAll` does), and a file listed again on a later page
 * is left out the second time. Places are looked up one match at a time: synced items from the
 * indexes, the folders above the others from the device, each folder once per `places`.
 */
export async function searchFiles(
  client: Pick<DeviceClient, 'searchText'>,
  places: PlaceFinder,
  query: string,
  options: SearchFilesOptions = {},
): Promise<TextSearchResult> {
  checkQuery(query);
  checkLimit(options.limit, MAX_TEXT_LIMIT);
  const { signal } = options;
  const result: TextSearchResult = { query, matches: [], rejected: [], pageToken: '' };
  const listed = new Set<string>();
  const tokens = new Set<string>();
  let token = options.pageToken ?? '';
  if (token !== '') tokens.add(token);
  for (;;) {
    const page = await client.searchText(query, { pageToken: token, limit: options.limit, signal });
    for (const match of page.matches) {
      if (listed.has(match.file.id)) continue;
      listed.add(match.file.id);
      const place = await places.placeOf(match.file, signal);
      result.matches.push({
        file: match.file,
        fragments: match.fragments.map(({ text, locations }) => ({
          field: fieldOf(match.file, text),
          text,
          locations: matchedRanges(text, locations),
        })),
        devicePath: place.devicePath,
        localPath: place.localPath,
      });
    }
    result.rejected.push(...page.rejected);
    token = page.pageToken;
    if (token === '' || options.allPages !== true) break;
    // A device handing out the same token twice would otherwise keep this loop going forever.
    if (tokens.has(token)) {
      throw new BadResponseError(`The search for ${JSON.stringify(query)} repeats a page token.`);
    }
    tokens.add(token);
  }
  result.pageToken = token;
  return result;
}

/** Which searched string of `file` a fragment's text is (the first in the device's order). */
export function fieldOf(file: RemoteFile, text: string): FragmentField | undefined {
  return FRAGMENT_FIELDS.find((field) => fieldText(file, field) === text);
}

function fieldText(file: RemoteFile, field: FragmentField): string | undefined {
  switch (field) {
    case 'name':
      return file.name;
    case 'mimeType':
      return file.mimeType;
    case 'extension':
      return file.extension ?? extensionOf(file.name);
    case 'cameraMake':
      return file.image?.cameraMake;
    case 'cameraModel':
      return file.image?.cameraModel;
    case 'date':
      return file.image?.date;
    default:
      return assertNever(field, 'fragment field');
  }
}

/** `.txt` of `a.b.txt`; none for `.profile` or `README`. */
function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : undefined;
}
