// Requests per second of the device's GET file and 100-item listing, against a bare node:http server.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printComparison, type Measurement } from './lib/report.ts';
import { startBenchDevice } from './lib/device.ts';
import { startNodeProcess } from './lib/processes.ts';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 5);
const connections = 10;
const root = fileURLToPath(new URL('..', import.meta.url));

async function load(name: string, url: string, headers: Record<string, string>): Promise<Measurement> {
  // A short unmeasured run first, so JIT warm-up and cold caches do not count against either side.
  await autocannon({ url, headers, connections, duration: 1 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return {
    name,
    rate: result.requests.average,
    unit: 'requests/s',
    detail: `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mch-bench-'));
  const device = await startBenchDevice(dataDir);
  try {
    const { base, token } = device;
    const auth = { authorization: `Bearer ${token}` };
    const folderId = await create(base, auth, 'root', 'folder', true);
    let fileId = '';
    for (let i = 0; i < 100; i += 1) fileId = await create(base, auth, folderId, `file-${i}.txt`, false);
    const fileUrl = `${base}/sdk/v2/files/${fileId}`;
    const fileBody = await (await fetch(fileUrl, { headers: auth })).text();

    const bare = await startNodeProcess(
      [join(root, 'bench/lib/bare-json-server.ts'), fileBody],
      /^listening (\S+)$/,
    );
    try {
      const baseline = await load('bare node:http, fixed JSON body', bare.value, {});
      const rows = [
        await load('GET /sdk/v2/files/{id}', fileUrl, auth),
        await load(
          'GET /sdk/v2/filesSearch/parents (100 items)',
          `${base}/sdk/v2/filesSearch/parents?ids=${folderId}&limit=100`,
          auth,
        ),
      ];
      printComparison(
        `Device requests per second (${connections} connections, ${seconds} s each)`,
        baseline,
        rows,
      );
    } finally {
      await bare.stop();
    }
  } finally {
    await device.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function create(
  base: string,
  auth: Record<string, string>,
  parentID: string,
  name: string,
  folder: boolean,
): Promise<string> {
  const metadata = JSON.stringify({
    name,
    parentID,
    ...(folder ? { mimeType: 'application/x.wd.dir' } : {}),
  });
  const body = `--b\r\nContent-Type: application/json\r\n\r\n${metadata}\r\n${folder ? '' : '--b\r\n\r\nhello\r\n'}--b--\r\n`;
  const answer = await fetch(`${base}/sdk/v2/files`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'multipart/related; boundary=b' },
    body,
  });
  if (answer.status !== 201) throw new Error(`create ${name}: ${answer.status} ${await answer.text()}`);
  return (answer.headers.get('location') ?? '').split('/').at(-1) ?? '';
}

await main();
