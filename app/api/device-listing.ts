// Folder listings with paging and If-None-Match, text search and media-time search (device-api.md §3).
import { z } from 'zod';
import { BadResponseError } from '../../common/errors.ts';
import { etagOf, parseJson, msToWireTime } from './answers.ts';
import type { DeviceEndpoint } from './device-endpoint.ts';
import type { ApiResponse } from './http/transport.ts';
import {
  checkItem,
  checkItems,
  pageSchema,
  textSearchSchema,
  type RejectedItem,
  type RemoteFile,
} from './device-schemas.ts';

export interface ListOptions {
  /** 1-1000; the device's default is 100. */
  limit?: number;
  pageToken?: string;
  orderBy?: 'name' | 'mTime' | 'size';
  order?: 'asc' | 'desc';
  /** The listing eTag of an earlier first page: unchanged folders answer `notModified`. */
  ifNoneMatch?: string;
  signal?: AbortSignal;
}

/**
 * One page. Items whose name could escape a folder, or that are malformed, are not in `files` but in
 * `rejected` with a typed error each: one bad item must not hide the rest of the folder.
 */
export interface ListingPage {
  notModified: false;
  files: RemoteFile[];
  rejected: RejectedItem[];
  /** "" on the last page. */
  pageToken: string;
  /** The listing's ETag (device-api.md §3, decided: use it only to save work). */
  eTag: string | undefined;
}

export type ListingAnswer = ListingPage | { notModified: true };

/** The URL of one listing page; a revalidation must ask for exactly the URL the listing's ETag came from. */
export function listingUrl(client: DeviceEndpoint, folderId: string, options: ListOptions = {}): URL {
  return client.url('/sdk/v2/filesSearch/parents', {
    ids: folderId,
    limit: options.limit,
    pageToken: options.pageToken === '' ? undefined : options.pageToken,
    orderBy: options.orderBy,
    order: options.order,
  });
}

/** Characters `URLSearchParams` leaves as they are (application/x-www-form-urlencoded). */
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

/**
 * The request targets (path and query) of first listing pages with `limit`, by folder id: what
 * `listingUrl` gives, without building a URL for each of a walk's thousand folders.
 */
export function listingTargets(
  client: DeviceEndpoint,
  limit: number | undefined,
): (folderId: string) => string {
  const probe = listingUrl(client, '', { limit });
  const [head, tail] = [`${probe.pathname}?ids=`, probe.search.slice('?ids='.length)];
  // `ids` comes first in the query (listingUrl sets it first); anything else: one URL each.
  if (!probe.search.startsWith('?ids=')) {
    return (folderId) => {
      const url = listingUrl(client, folderId, { limit });
      return `${url.pathname}${url.search}`;
    };
  }
  return (folderId) =>
    FORM_SAFE.test(folderId)
      ? `${head}${folderId}${tail}`
      : `${head}${new URLSearchParams([['ids', folderId]]).toString().slice('ids='.length)}${tail}`;
}

export async function listPage(
  client: DeviceEndpoint,
  folderId: string,
  options: ListOptions = {},
): Promise<ListingAnswer> {
  const response = await client.send({
    method: 'GET',
    url: listingUrl(client, folderId, options),
    what: `list folder ${folderId}`,
    headers: options.ifNoneMatch === undefined ? {} : { 'if-none-match': options.ifNoneMatch },
    accept: ['not-modified'],
    signal: options.signal,
  });
  return response.kind === 'not-modified' ? { notModified: true } : readListingPage(response, folderId);
}

/** A listing page from its answer (a 200), checked as every listing is. */
export function readListingPage(response: ApiResponse, folderId: string): ListingPage {
  const what = `list folder ${folderId}`;
  const page = parseJson(response, pageSchema, what);
  const checked = checkItems(page.files, what, { correlationId: response.correlationId });
  return { notModified: false, ...checked, pageToken: page.pageToken ?? '', eTag: etagOf(response) };
}

/**
 * Every page of a folder. `ifNoneMatch` applies to the first page only; `notModified` then means the
 * whole folder is unchanged. The eTag returned is the first page's.
 */
export async function listAll(
  client: DeviceEndpoint,
  folderId: string,
  options: Omit<ListOptions, 'pageToken'> & { firstPage?: ApiResponse } = {},
): Promise<ListingAnswer> {
  const { firstPage, ...listOptions } = options;
  const first =
    firstPage === undefined
      ? await listPage(client, folderId, listOptions)
      : readListingPage(firstPage, folderId);
  if (first.notModified) return first;
  const result: ListingPage = { ...first, files: [...first.files], rejected: [...first.rejected] };
  const seen = new Set<string>();
  const { ifNoneMatch: _firstPageOnly, ...rest } = listOptions;
  let token = first.pageToken;
  while (token !== '') {
    // A device handing out the same token twice would otherwise keep this loop going forever.
    if (seen.has(token))
      throw new BadResponseError(`The listing of folder ${folderId} repeats a page token.`);
    seen.add(token);
    const page = await listPage(client, folderId, { ...rest, pageToken: token });
    if (page.notModified) break;
    result.files.push(...page.files);
    result.rejected.push(...page.rejected);
    token = page.pageToken;
  }
  result.pageToken = '';
  return result;
}

export interface TextMatch {
  file: RemoteFile;
  fragments: { text: string; locations: { index: number; length: number }[] }[];
}

export interface TextSearchPage {
  matches: TextMatch[];
  rejected: RejectedItem[];
  pageToken: string;
}

export interface TextSearchOptions {
  limit?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export async function searchText(
  client: DeviceEndpoint,
  query: string,
  options: TextSearchOptions = {},
): Promise<TextSearchPage> {
  const what = `search for ${JSON.stringify(query)}`;
  const response = await client.send({
    method: 'GET',
    url: client.url('/sdk/v2/filesSearch/text', {
      q: query,
      limit: options.limit,
      pageToken: options.pageToken === '' ? undefined : options.pageToken,
    }),
    what,
    signal: options.signal,
  });
  const page = parseJson(response, textSearchSchema, what);
  const result: TextSearchPage = { matches: [], rejected: [], pageToken: page.pageToken ?? '' };
  for (const match of page.matches) {
    const checked = checkItem(match.file, what, { correlationId: response.correlationId });
    if ('file' in checked) result.matches.push({ file: checked.file, fragments: match.fragments });
    else result.rejected.push(checked.rejected);
  }
  return result;
}

export interface MediaTimeQuery {
  /** Milliseconds since the epoch, inclusive. */
  startTimeMs: number;
  endTimeMs: number;
  mimeGroups?: ('image' | 'video')[];
  minWidth?: number;
  minHeight?: number;
  limit?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export interface MediaTimePage {
  files: RemoteFile[];
  rejected: RejectedItem[];
  pageToken: string;
}

export async function searchMediaTime(client: DeviceEndpoint, query: MediaTimeQuery): Promise<MediaTimePage> {
  const what = 'search photos and videos by time';
  const response = await client.send({
    method: 'GET',
    url: client.url('/sdk/v2/filesSearch/mediaTime', {
      startTime: msToWireTime(query.startTimeMs),
      endTime: msToWireTime(query.endTimeMs),
      mimeGroups: query.mimeGroups?.join(','),
      minWidth: query.minWidth,
      minHeight: query.minHeight,
      limit: query.limit,
      pageToken: query.pageToken === '' ? undefined : query.pageToken,
    }),
    what,
    signal: query.signal,
  });
  const page = parseJson(
    response,
    z.object({ files: z.array(z.unknown()), pageToken: z.string().optional() }),
    what,
  );
  const checked = checkItems(page.files, what, { correlationId: response.correlationId });
  return { ...checked, pageToken: page.pageToken ?? '' };
}
