// The first-download baseline: a plain node:http downloader that copies a device folder into an empty local folder.
//
// It does what any downloader must and nothing more: list the folder tree (device-api.md §3, listing
// pages of 1000), make each local folder, then GET each file's content with a fixed number of requests
// in flight over keep-alive connections and write it. No index, no temporary files, no retries, no
// checks beyond the status and the length.
import { Agent, request } from 'node:http';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eachLimited } from './plain-uploader.ts';

export interface PlainDownloadOptions {
  /** The device base, e.g. `http://127.0.0.1:4780`. */
  base: string;
  token: string;
  /** The name of a folder in the user's root folder: its tree comes down. */
  remoteName: string;
  /** An empty (or missing) local folder. */
  localRoot: string;
  /** Requests in flight at once. */
  concurrency: number;
}

export interface PlainDownloadResult {
  files: number;
  folders: number;
  bytes: number;
  requests: number;
}

interface ListedFile {
  id: string;
  name: string;
  mimeType?: string;
  size?: number;
}

const DIR_MIME_TYPE = 'application/x.wd.dir';

export async function plainDownload(options: PlainDownloadOptions): Promise<PlainDownloadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  let requests = 0;

  const get = (path: string): Promise<Buffer> => {
    requests += 1;
    return new Promise((resolve, reject) => {
      const outgoing = request(
        new URL(path, options.base),
        { agent, headers: { authorization: `Bearer ${options.token}` } },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat(chunks);
            if (answer.statusCode !== 200) {
              reject(new Error(`GET ${path}: ${String(answer.statusCode)} ${body.toString('utf8')}`));
              return;
            }
            const length = Number(answer.headers['content-length'] ?? body.length);
            if (length !== body.length) reject(new Error(`GET ${path}: ${body.length} of ${length} bytes`));
            else resolve(body);
          });
          answer.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  };

  const list = async (folderId: string): Promise<ListedFile[]> => {
    const files: ListedFile[] = [];
    let pageToken = '';
    do {
      const query = new URLSearchParams({ ids: folderId, limit: '1000' });
      if (pageToken !== '') query.set('pageToken', pageToken);
      const page = JSON.parse(
        (await get(`/sdk/v2/filesSearch/parents?${query.toString()}`)).toString('utf8'),
      ) as { files: ListedFile[]; pageToken: string };
      files.push(...page.files);
      pageToken = page.pageToken;
    } while (pageToken !== '');
    return files;
  };

  try {
    const query = new URLSearchParams({ parentID: 'root', name: options.remoteName });
    const top = JSON.parse(
      (await get(`/sdk/v2/filesSearch/parentAndName?${query.toString()}`)).toString('utf8'),
    ) as ListedFile;
    mkdirSync(options.localRoot, { recursive: true });
    // Folders level by level, listed a few at a time; every file found goes on one list.
    const files: Array<{ id: string; path: string }> = [];
    let level: Array<{ id: string; path: string }> = [{ id: top.id, path: options.localRoot }];
    let folders = 1;
    while (level.length > 0) {
      const next: Array<{ id: string; path: string }> = [];
      await eachLimited(level, options.concurrency, async (folder) => {
        for (const item of await list(folder.id)) {
          const path = join(folder.path, item.name);
          if (item.mimeType === DIR_MIME_TYPE) {
            mkdirSync(path);
            next.push({ id: item.id, path });
          } else {
            files.push({ id: item.id, path });
          }
        }
      });
      folders += next.length;
      level = next;
    }
    let bytes = 0;
    await eachLimited(files, options.concurrency, async (file) => {
      const content = await get(`/sdk/v2/files/${encodeURIComponent(file.id)}/content`);
      bytes += content.length;
      await writeFile(file.path, content);
    });
    return { files: files.length, folders, bytes, requests };
  } finally {
    agent.destroy();
  }
}
