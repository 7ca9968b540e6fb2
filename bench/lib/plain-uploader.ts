// The first-upload baseline: a plain uploader on node:http that copies a local tree into a new device folder.
//
// It does what any uploader must and nothing more: walk the tree, create each folder, then POST each
// file as device-api.md §3 describes (multipart/related: a JSON metadata part, then the content), with
// a fixed number of requests in flight over keep-alive connections. No index, no retries, no checks
// beyond the status.
import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface PlainUploadOptions {
  /** The device base, e.g. `http://127.0.0.1:4780`. */
  base: string;
  token: string;
  localRoot: string;
  /** A folder of this name is created in the user's root folder and the tree goes into it. */
  remoteName: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Names left out wherever they occur (a sync client's state folder in the same tree). */
  skipNames?: readonly string[];
}

export interface PlainUploadResult {
  files: number;
  folders: number;
  bytes: number;
  requests: number;
}

interface LocalFile {
  path: string;
  parentKey: string;
  name: string;
  mTimeMs: number;
}

interface LocalFolder {
  key: string;
  parentKey: string;
  name: string;
}

const DIR_MIME_TYPE = 'application/x.wd.dir';

/** Folders parents first (breadth first) and every file, from one synchronous walk. */
function walk(root: string, skipNames: ReadonlySet<string>): { folders: LocalFolder[]; files: LocalFile[] } {
  const folders: LocalFolder[] = [];
  const files: LocalFile[] = [];
  const queue = [''];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    for (const dirent of readdirSync(join(root, key), { withFileTypes: true })) {
      if (skipNames.has(dirent.name)) continue;
      const childKey = key === '' ? dirent.name : `${key}/${dirent.name}`;
      if (dirent.isDirectory()) {
        folders.push({ key: childKey, parentKey: key, name: dirent.name });
        queue.push(childKey);
      } else if (dirent.isFile()) {
        const path = join(root, childKey);
        files.push({ path, parentKey: key, name: dirent.name, mTimeMs: lstatSync(path).mtimeMs });
      }
    }
  }
  return { folders, files };
}

/** Runs `work` over `items` with at most `concurrency` at once. */
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

export async function plainUpload(options: PlainUploadOptions): Promise<PlainUploadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const url = new URL('/sdk/v2/files', options.base);
  let requests = 0;

  const create = (metadata: Record<string, unknown>, content: Buffer | undefined): Promise<string> => {
    const boundary = randomBytes(12).toString('hex');
    const head = `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(metadata)}\r\n`;
    const parts =
      content === undefined
        ? [Buffer.from(`${head}--${boundary}--\r\n`)]
        : [
            Buffer.from(`${head}--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`),
            content,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ];
    const body = Buffer.concat(parts);
    requests += 1;
    return new Promise((resolve, reject) => {
      const outgoing = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${options.token}`,
            'content-type': `multipart/related; boundary=${boundary}`,
            'content-length': body.length,
          },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            if (answer.statusCode !== 201) {
              const text = Buffer.concat(chunks).toString('utf8');
              reject(new Error(`POST ${String(metadata['name'])}: ${String(answer.statusCode)} ${text}`));
              return;
            }
            // device-api.md §3: Location is /sdk/v2/files/{newId}.
            resolve(answer.headers.location?.split('/').at(-1) ?? '');
          });
          answer.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };

  try {
    const { folders, files } = walk(options.localRoot, new Set(options.skipNames));
    const ids = new Map<string, string>();
    ids.set(
      '',
      await create({ name: options.remoteName, parentID: 'root', mimeType: DIR_MIME_TYPE }, undefined),
    );
    // Folders level by level, so each parent exists before its children are asked for.
    const depthOf = (key: string): number => key.split('/').length;
    const maxDepth = Math.max(0, ...folders.map((folder) => depthOf(folder.key)));
    for (let depth = 1; depth <= maxDepth; depth += 1) {
      await eachLimited(
        folders.filter((folder) => depthOf(folder.key) === depth),
        options.concurrency,
        async (folder) => {
          const parentID = ids.get(folder.parentKey) as string;
          ids.set(
            folder.key,
            await create({ name: folder.name, parentID, mimeType: DIR_MIME_TYPE }, undefined),
          );
        },
      );
    }
    let bytes = 0;
    await eachLimited(files, options.concurrency, async (file) => {
      const content = await readFile(file.path);
      bytes += content.length;
      const metadata = {
        name: file.name,
        parentID: ids.get(file.parentKey) as string,
        mTime: new Date(file.mTimeMs).toISOString(),
      };
      await create(metadata, content);
    });
    return { files: files.length, folders: folders.length + 1, bytes, requests };
  } finally {
    agent.destroy();
  }
}
