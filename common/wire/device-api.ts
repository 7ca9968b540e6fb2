// Wire types of the device API (device-api.md §3), shared by the local device and the client.

/** The vendor media type that marks a folder. */
export const DIR_MIME_TYPE = 'application/x.wd.dir';

/** The alias of the caller's root folder, accepted wherever an id is. */
export const ROOT_ALIAS = 'root';

export const HIDDEN_VALUES = ['mac', 'linux', 'windows', 'none'] as const;
export type HiddenValue = (typeof HIDDEN_VALUES)[number];

export interface ImageInfo {
  date?: string;
  width?: number;
  height?: number;
  cameraMake?: string;
  cameraModel?: string;
  aperture?: number;
  exposureTime?: number;
  isoSpeed?: number;
  focalLength?: number;
  flashFired?: boolean;
  orientation?: number;
  previewAvailable?: boolean;
  previewSourceWidth?: number;
  previewSourceHeight?: number;
}

/** A file or folder as the device describes it. The root has no `parentID`. */
export interface FileObject {
  id: string;
  parentID?: string;
  eTag: string;
  size: number;
  mimeType: string;
  mimeTypes: string[];
  name: string;
  mTime: string;
  cTime: string;
  extension?: string;
  hidden: HiddenValue;
  trashed: boolean;
  family: boolean;
  image?: ImageInfo;
}

/** Body of `GET /sdk/v2/filesSearch/parents`. */
export interface ListingResponse {
  pageToken: string;
  files: Partial<FileObject>[];
}

/** Metadata part of a multipart create, and the body of a patch. */
export interface FileMetadataInput {
  name?: string;
  parentID?: string;
  mimeType?: string;
  mTime?: string;
  cTime?: string;
  hidden?: HiddenValue;
}

/** Body of `GET /sdk/v2/files/{id}/resumable`. */
export interface ResumableStatus {
  id: string;
  size: number;
}

/** The JSON error body of every device route. */
export interface DeviceErrorBody {
  label: string;
  message: string;
}

/** device-api.md §3: the strings a text search looks in, in the order the device lists their fragments. */
export const SEARCHED_FIELDS = [
  'name',
  'mimeType',
  'extension',
  'cameraMake',
  'cameraModel',
  'date',
] as const;
export type SearchedField = (typeof SEARCHED_FIELDS)[number];
