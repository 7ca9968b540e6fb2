// Builds multipart/related file-create bodies (device-api.md §3) and posts them to a test device.
import type { TestDevice } from './device.ts';

export type PartHeaders =
  /** `Content-Type` headers and the blank line that ends them. */
  | 'standard'
  /** No headers, only the blank line that says so. */
  | 'blank-line'
  /** Neither: the part's body starts right after the delimiter line. */
  | 'none';

export interface MultipartOptions {
  boundary?: string;
  lineEnding?: '\r\n' | '\n';
  /** Bytes before the first delimiter line, for example a blank line. */
  preamble?: string;
  metadataHeaders?: PartHeaders;
  contentHeaders?: PartHeaders;
  /** Leaves out the closing `--boundary--`, as a truncated upload would. */
  omitClose?: boolean;
}

export interface MultipartBody {
  body: Buffer;
  contentType: string;
}

function partHead(kind: PartHeaders, contentType: string, eol: string): string {
  switch (kind) {
    case 'standard':
      return `Content-Type: ${contentType}${eol}${eol}`;
    case 'blank-line':
      return eol;
    case 'none':
      return '';
  }
}

/**
 * A create body: part 1 the metadata (an object is sent as JSON, a string as is), part 2 the content
 * when `content` is given (an empty string or buffer makes an empty content part).
 */
export function multipartBody(
  metadata: unknown,
  content?: Uint8Array | string,
  options: MultipartOptions = {},
): MultipartBody {
  const boundary = options.boundary ?? `mch-test-${Math.random().toString(36).slice(2)}`;
  const eol = options.lineEnding ?? '\r\n';
  const metadataText = typeof metadata === 'string' ? metadata : JSON.stringify(metadata);
  const pieces: Buffer[] = [
    Buffer.from(options.preamble ?? ''),
    Buffer.from(`--${boundary}${eol}`),
    Buffer.from(partHead(options.metadataHeaders ?? 'standard', 'application/json; charset=UTF-8', eol)),
    Buffer.from(metadataText),
  ];
  if (content !== undefined) {
    pieces.push(
      Buffer.from(`${eol}--${boundary}${eol}`),
      Buffer.from(partHead(options.contentHeaders ?? 'standard', 'application/octet-stream', eol)),
      typeof content === 'string' ? Buffer.from(content) : Buffer.from(content),
    );
  }
  if (!options.omitClose) pieces.push(Buffer.from(`${eol}--${boundary}--${eol}`));
  return { body: Buffer.concat(pieces), contentType: `multipart/related; boundary=${boundary}` };
}

export interface PostOptions extends MultipartOptions {
  user?: string;
  /** The query string without its `?`, e.g. `resolveNameConflict=true`. */
  query?: string;
  /** Default `/sdk/v2/files`. */
  path?: string;
  headers?: Record<string, string>;
}

/** Posts a create body and returns the raw answer. */
export function postMultipart(
  device: TestDevice,
  metadata: unknown,
  content?: Uint8Array | string,
  options: PostOptions = {},
): Promise<Response> {
  const { body, contentType } = multipartBody(metadata, content, options);
  const path = `${options.path ?? '/sdk/v2/files'}${options.query ? `?${options.query}` : ''}`;
  return device.fetchAs(options.user ?? 'alice', path, {
    method: 'POST',
    headers: { 'content-type': contentType, ...options.headers },
    body,
  });
}

/** The item id at the end of a `Location: /sdk/v2/files/{id}` header. */
export function idFromLocation(response: Response): string {
  const location = response.headers.get('location') ?? '';
  const match = /^\/sdk\/v2\/files\/([^/?]+)$/.exec(location);
  if (!match?.[1]) throw new Error(`unexpected Location header ${JSON.stringify(location)}`);
  return decodeURIComponent(match[1]);
}

export interface Created {
  id: string;
  etag: string;
}

/** Creates an item and fails loudly unless the device answers 201. */
export async function createItem(
  device: TestDevice,
  metadata: Record<string, unknown>,
  content?: Uint8Array | string,
  options: PostOptions = {},
): Promise<Created> {
  const response = await postMultipart(device, metadata, content, options);
  if (response.status !== 201) {
    throw new Error(
      `create ${JSON.stringify(metadata)} answered ${response.status}: ${await response.text()}`,
    );
  }
  return { id: idFromLocation(response), etag: response.headers.get('etag') ?? '' };
}

export const FOLDER_MIME_TYPE = 'application/x.wd.dir';

export function createFolder(
  device: TestDevice,
  name: string,
  parentID = 'root',
  options: PostOptions = {},
): Promise<Created> {
  return createItem(device, { name, parentID, mimeType: FOLDER_MIME_TYPE }, undefined, options);
}

export function createFile(
  device: TestDevice,
  name: string,
  content: Uint8Array | string,
  parentID = 'root',
  options: PostOptions = {},
): Promise<Created> {
  return createItem(device, { name, parentID }, content, options);
}

/** Makes uniquely named folders (`prefix-1`, `prefix-2`...) on the device it is given, so tests sharing one device never collide. */
export function folderMaker(prefix: string): (device: TestDevice, parentID?: string) => Promise<Created> {
  let count = 0;
  return (device, parentID = 'root') => {
    count += 1;
    return createFolder(device, `${prefix}-${count}`, parentID);
  };
}

/** Makes uniquely named folders (`prefix-1`, `prefix-2`...) so the tests sharing one device never collide. */
export function folderFactory(
  device: () => TestDevice,
  prefix: string,
): (parentID?: string) => Promise<Created> {
  let count = 0;
  return (parentID = 'root') => {
    count += 1;
    return createFolder(device(), `${prefix}-${count}`, parentID);
  };
}
