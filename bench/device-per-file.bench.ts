// The device's CPU per small file created, read and deleted through its HTTP API, against a bare node:http file server (issue #34).
//
// The client sends what the sync client sends (app/api/device-client.ts, multipart.ts, download.ts):
// one multipart/related POST /sdk/v2/files per file with {name, parentID, mTime} and the content in one
// write, GET .../content with If-Match and `accept-encoding: identity`, DELETE with If-Match; keep-alive
// connections, 4 requests in flight. Each phase ends when the server's CPU has settled, so background
// work it caused (search indexing, deletes finished later) counts; the create phase also ends with one
// text search, which must see every file. Device CPU is read from /proc for the child process.
//
// BENCH_PER_FILE_FILES (default 4000), BENCH_PER_FILE_FOLDERS (40), BENCH_PER_FILE_RUNS (2);
// BENCH_PER_FILE_PROFILE=DIR starts the device with --cpu-prof and prints its top functions per phase.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIR_MIME_TYPE } from '../common/wire/device-api.ts';
import { summariseDeviceProfile, type PhaseWindow } from './lib/device-per-file-profile.ts';
import { benchToken } from './lib/device.ts';
import { cpuSeconds } from './lib/process-usage.ts';
import { startNodeProcess, type ServerProcess } from './lib/processes.ts';
import { median } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_PER_FILE_FILES'] ?? 4000);
const FOLDERS = Number(process.env['BENCH_PER_FILE_FOLDERS'] ?? 40);
const RUNS = Number(process.env['BENCH_PER_FILE_RUNS'] ?? 2);
const PROFILE_DIR = process.env['BENCH_PER_FILE_PROFILE'];
const CONCURRENCY = 4;
const WARM_UP_FILES = 300;
const root = fileURLToPath(new URL('..', import.meta.url));

type Phase = 'create' | 'read' | 'delete';
const PHASES: readonly Phase[] = ['create', 'read', 'delete'];

interface Server {
  name: string;
  base: string;
  token: string;
  pid: number;
  process: ServerProcess;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(
  server: Server,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent: Record<string, string> = {
      'user-agent': 'mch-sync',
      'x-correlation-id': randomUUID(),
      authorization: `Bearer ${server.token}`,
      'accept-encoding': 'gzip, deflate, br',
      ...headers,
    };
    if (body) sent['content-length'] = String(body.length);
    const outgoing = httpRequest(new URL(path, server.base), { method, headers: sent, agent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) }),
      );
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function expect(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) {
    throw new Error(
      `${what}: ${answer.status}, not ${status}: ${answer.body.toString('utf8').slice(0, 200)}`,
    );
  }
  return answer;
}

/** The body of app/api/multipart.ts: JSON metadata, then the content, CRLF line ends. */
function multipart(metadata: object, content?: Buffer): { type: string; body: Buffer } {
  const boundary = `mch-${randomBytes(16).toString('hex')}`;
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(metadata)}\r\n`,
    ),
  ];
  if (content) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`), content);
  }
  parts.push(Buffer.from(`${content ? '\r\n' : ''}--${boundary}--\r\n`));
  return { type: `multipart/related; boundary=${boundary}`, body: Buffer.concat(parts) };
}

async function create(server: Server, metadata: object, content?: Buffer): Promise<Created> {
  const { type, body } = multipart(metadata, content);
  const answer = expect(
    await send(server, 'POST', '/sdk/v2/files', { 'content-type': type }, body),
    201,
    'create',
  );
  const id = /\/files\/([^/?]+)$/.exec(String(answer.headers.location))?.[1];
  const eTag = answer.headers.etag;
  if (!id || !eTag) throw new Error('create: no Location or ETag');
  return { id, eTag, size: content?.length ?? 0 };
}

interface Created {
  id: string;
  eTag: string;
  size: number;
}

/** Runs `work` over `items` with CONCURRENCY in flight. */
async function inFlight<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/**
 * Waits until the process is quiet (background work it still had is done): three half-seconds in a row
 * under 10% of a core. Background work runs flat out, and a profiler's sampling thread alone uses a
 * few percent, so "no tick at all" would never come with --cpu-prof.
 */
async function settled(pid: number): Promise<void> {
  let last = cpuSeconds(pid);
  for (let quiet = 0; quiet < 3;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuSeconds(pid);
    quiet = now - last < 0.05 ? quiet + 1 : 0;
    last = now;
  }
}

function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

interface RunResult {
  cpuMsPerFile: Record<Phase, number>;
  windows: PhaseWindow[];
}

async function runOnce(server: Server, files: number, label: string): Promise<RunResult> {
  const top = await create(server, {
    name: `${label}-${randomUUID()}`,
    parentID: 'root',
    mimeType: DIR_MIME_TYPE,
  });
  const folders: string[] = [];
  for (let index = 0; index < FOLDERS; index += 1) {
    const folder = await create(server, {
      name: `folder-${index}`,
      parentID: top.id,
      mimeType: DIR_MIME_TYPE,
    });
    folders.push(folder.id);
  }
  const toCreate = Array.from({ length: files }, (_, index) => index);
  const created: Created[] = [];
  const cpu: Partial<Record<Phase, number>> = {};
  const windows: PhaseWindow[] = [];
  const measure = async (phase: Phase, work: () => Promise<void>): Promise<void> => {
    await settled(server.pid);
    const startUs = nowUs();
    const before = cpuSeconds(server.pid);
    await work();
    await settled(server.pid);
    cpu[phase] = ((cpuSeconds(server.pid) - before) * 1000) / files;
    windows.push({ name: phase, startUs, endUs: nowUs() });
  };
  const mTime = new Date().toISOString();
  await measure('create', async () => {
    await inFlight(toCreate, async (index) => {
      // 1-4 KiB, like the first-upload bench's small files.
      const content = randomBytes(1024 + (index % 4) * 1024);
      const parentID = folders[index % folders.length] as string;
      created.push(await create(server, { name: `file-${index}.txt`, parentID, mTime }, content));
    });
    // A search must see every file: the device's indexing of them is part of a create's cost.
    if (server.name !== 'baseline') {
      const found = expect(
        await send(server, 'GET', `/sdk/v2/filesSearch/text?q=file-${files - 1}.txt&limit=5`),
        200,
        'search',
      );
      if (!found.body.toString('utf8').includes(`file-${files - 1}.txt`))
        throw new Error('search missed a file');
    }
  });
  await measure('read', () =>
    inFlight(created, async (file) => {
      const answer = expect(
        await send(server, 'GET', `/sdk/v2/files/${file.id}/content`, {
          'if-match': file.eTag,
          'accept-encoding': 'identity',
        }),
        200,
        'read',
      );
      if (answer.body.length !== file.size) throw new Error(`read ${file.id}: ${answer.body.length} bytes`);
    }),
  );
  await measure('delete', () =>
    inFlight(created, async (file) => {
      expect(
        await send(server, 'DELETE', `/sdk/v2/files/${file.id}`, { 'if-match': file.eTag }),
        204,
        'delete',
      );
    }),
  );
  return { cpuMsPerFile: cpu as Record<Phase, number>, windows };
}

async function startDevice(dataDir: string): Promise<Server> {
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = await startNodeProcess(
    [...profile, join(root, 'bin/mch-device.js'), '--port', '0', '--data', dataDir, '--user', 'bench:bench'],
    /^config url: (\S+)\/config\/v1\/config$/,
  );
  const token = await benchToken(child.value);
  return { name: 'device', base: child.value, token, pid: child.child.pid as number, process: child };
}

async function startBaseline(dataDir: string): Promise<Server> {
  const child = await startNodeProcess(
    [join(root, 'bench/lib/device-per-file-baseline.ts'), dataDir],
    /^listening (\S+)$/,
  );
  return {
    name: 'baseline',
    base: child.value,
    token: 'baseline',
    pid: child.child.pid as number,
    process: child,
  };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mch-per-file-bench-'));
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  const servers = [await startBaseline(join(work, 'baseline')), await startDevice(join(work, 'device'))];
  const results = new Map<string, RunResult[]>(servers.map((server) => [server.name, []]));
  try {
    // Unmeasured: warms both servers' JIT and the bench's own.
    for (const server of servers) await runOnce(server, WARM_UP_FILES, 'warm-up');
    for (let run = 0; run < RUNS; run += 1) {
      // Alternate which goes first, so neither always meets the busier moment of the machine.
      const order = run % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const result = await runOnce(server, FILES, `run-${run}`);
        results.get(server.name)?.push(result);
        const figures = PHASES.map((phase) => `${phase} ${result.cpuMsPerFile[phase].toFixed(3)}`).join(', ');
        console.log(`run ${run + 1} ${server.name}: CPU ms per file: ${figures}`);
      }
    }
  } finally {
    agent.destroy();
    for (const server of servers) await server.process.stop();
  }
  const medianOf = (name: string, phase: Phase): number =>
    median((results.get(name) ?? []).map((result) => result.cpuMsPerFile[phase]));
  console.log(
    `\nDevice CPU per small file (${FILES} files of 1-4 KiB in ${FOLDERS} folders, ${CONCURRENCY} in flight, median of ${RUNS} runs)`,
  );
  console.log('| phase | device ms CPU/file | bare node:http ms CPU/file | ratio |');
  console.log('|---|---:|---:|---:|');
  for (const phase of PHASES) {
    const device = medianOf('device', phase);
    const baseline = medianOf('baseline', phase);
    console.log(
      `| ${phase} | ${device.toFixed(3)} | ${baseline.toFixed(3)} | ${(device / baseline).toFixed(2)} |`,
    );
  }
  if (PROFILE_DIR) {
    const windows = (results.get('device') ?? []).flatMap((result) => result.windows);
    // For other readings of the same profile (inclusive times, call stacks).
    writeFileSync(join(PROFILE_DIR, 'phases.json'), JSON.stringify(windows));
    console.log(summariseDeviceProfile(PROFILE_DIR, windows, FILES * RUNS));
  }
  rmSync(work, { recursive: true, force: true });
}

await main();
