// The link-sharing flow of interface.md against a test device: shares, file permissions, share tokens.
import { deflateSync } from 'node:zlib';
import type { Wrapped } from '../../common/wire/cloud.ts';
import type {
  EntityType,
  FilePermRecord,
  FilePermValue,
  Share,
  ShareTokenResponse,
} from '../../common/wire/sharing.ts';
import type { TestDevice, TestDeviceOptions } from './device.ts';
import { createFile, createFolder, type Created } from './multipart.ts';

export function userId(device: TestDevice, name: string): string {
  const user = device.running.context.users.byName(name);
  if (!user) throw new Error(`no test user ${name}`);
  return user.id;
}

export function rootId(device: TestDevice, name: string): string {
  const user = device.running.context.users.byName(name);
  if (!user) throw new Error(`no test user ${name}`);
  return user.root_id;
}

/** POST {share_url}/v1/shares as `user` with the body it should send; the raw answer. */
export function postShare(device: TestDevice, user: string, fileIds: string[]): Promise<Response> {
  return device.fetchAs(user, '/cloud/v1/shares', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      ownerId: userId(device, user),
      deviceId: device.running.context.device.id,
      fileIds,
    }),
  });
}

/** Step 1 of the flow; fails loudly unless the sharing service answers 201. */
export async function createShare(device: TestDevice, user: string, fileIds: string[]): Promise<Share> {
  const response = await postShare(device, user, fileIds);
  const body = (await response.json()) as Wrapped<Share>;
  if (response.status !== 201 || !body.data) {
    throw new Error(`POST /v1/shares answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.data;
}

/** POST /sdk/v1/filePerms as `user`; the raw answer. */
export function postFilePerm(
  device: TestDevice,
  user: string,
  fileID: string,
  /** Plain strings, so that tests may send values the device must refuse. */
  entity: { id: string; type: string },
  value: string,
  token?: string,
): Promise<Response> {
  return device.fetchAs(user, '/sdk/v1/filePerms', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ fileID, entity, value }),
  });
}

/** Grants a permission and fails loudly unless the device answers 201. */
export async function grant(
  device: TestDevice,
  user: string,
  fileID: string,
  entity: { id: string; type: EntityType },
  value: FilePermValue,
): Promise<FilePermRecord> {
  const response = await postFilePerm(device, user, fileID, entity, value);
  if (response.status !== 201) {
    throw new Error(`POST /sdk/v1/filePerms answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as FilePermRecord;
}

/** Steps 1 and 2 of the flow: a share of `fileIds` whose entity may read each of them. */
export async function shareWithLink(device: TestDevice, user: string, fileIds: string[]): Promise<Share> {
  const share = await createShare(device, user, fileIds);
  for (const fileID of fileIds) {
    await grant(device, user, fileID, { id: share.authId, type: 'cloudShare' }, 'ReadFile');
  }
  return share;
}

/** A device token of the share's entity, as the recipient's page issues it. */
export async function shareToken(share: Share): Promise<string> {
  const response = await fetch(`${share.url}/token`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`POST ${share.url}/token answered ${response.status}`);
  return ((await response.json()) as ShareTokenResponse).access_token;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid RGB PNG of one colour, small enough for the page's thumbnails. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3] ?? 0)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The users of the device a perms tree is made on: alice, bob, carol and dave. */
export const PERMS_TREE_DEVICE: TestDeviceOptions = {
  users: ['alice', 'bob', 'carol', 'dave'].map((name) => ({ name, password: `${name}-password` })),
};

/** alice's `projects/2026/plan.txt`, and the ids of bob and carol. */
export interface PermsTree {
  folder: Created;
  sub: Created;
  file: Created;
  bob: string;
  carol: string;
}

/** Makes alice's `projects/2026/plan.txt` on a device started with `PERMS_TREE_DEVICE`. */
export async function permsTree(device: TestDevice): Promise<PermsTree> {
  const folder = await createFolder(device, 'projects');
  const sub = await createFolder(device, '2026', folder.id);
  const file = await createFile(device, 'plan.txt', 'the plan', sub.id);
  return { folder, sub, file, bob: userId(device, 'bob'), carol: userId(device, 'carol') };
}
