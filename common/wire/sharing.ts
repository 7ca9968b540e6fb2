// Wire types of link sharing: file permissions on the device (device-api.md §3) and shares (§4).

/** Permission values; FileOwner is only ever the owner's, on their root, and cannot be granted. */
export const FILE_PERM_VALUES = [
  'ReadFile',
  'WriteFile',
  'ReadFilePerms',
  'WriteFilePerms',
  'FileOwner',
] as const;
export type FilePermValue = (typeof FILE_PERM_VALUES)[number];

/** `user`: a user of the device; `cloudShare`: the entity of a link share, whose id is the share's authId. */
export const ENTITY_TYPES = ['user', 'cloudShare'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface FilePermEntity {
  id: string;
  type: EntityType;
}

/** Body of `POST /sdk/v1/filePerms`. */
export interface FilePermInput {
  fileID: string;
  entity: FilePermEntity;
  value: FilePermValue;
}

/** A stored permission, as `POST /sdk/v1/filePerms` and the granting search return it. */
export interface FilePermRecord extends FilePermInput {
  id: string;
}

/** Body of `GET /sdk/v1/filePermsSearch/granting`; `pageToken` is "" on the last page. */
export interface FilePermsSearchResponse {
  filePerms: FilePermRecord[];
  pageToken: string;
}

/** Body of `POST {share_url}/v1/shares`. */
export interface CreateShareRequest {
  ownerId: string;
  deviceId: string;
  fileIds: string[];
}

/** A share (interface.md "Share"). */
export interface Share {
  shareId: string;
  deviceId: string;
  ownerId: string;
  /** The entity id to grant ReadFile to (entity type cloudShare) in step 2 of the link-sharing flow. */
  authId: string;
  fileIds: string[];
  dateCreated: number;
  lastModified: number;
  metadata: Record<string, unknown> | null;
  url: string;
}

/** Body of `POST {share url}/token`: a short-lived device token that reads as the share's entity. */
export interface ShareTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: 'nas_read_only';
  /** The items of the share that the link may read now. */
  fileIds: string[];
}
