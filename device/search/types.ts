// Wire types of the search routes (interface.md "Search match", device-api.md §3 "Listing and search").
import type { FileObject } from '../../common/wire/device-api.ts';

/** Where a term occurs in a fragment's text: UTF-16 code units, as JavaScript strings count. */
export interface SearchLocation {
  index: number;
  length: number;
}

/** One searched string of a file (its name, mimeType...) and where the terms occur in it. */
export interface SearchFragment {
  text: string;
  locations: SearchLocation[];
}

export interface SearchMatch {
  file: Partial<FileObject>;
  fragments: SearchFragment[];
}

/** Body of `GET /sdk/v2/filesSearch/text`. */
export interface TextSearchResponse {
  pageToken: string;
  matches: SearchMatch[];
}

/** Body of `GET /sdk/v2/filesSearch/mediaTime`. */
export interface MediaTimeResponse {
  files: Partial<FileObject>[];
  pageToken: string;
}
