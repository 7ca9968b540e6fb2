// Abandoned resumable uploads (device-api.md §3, decided): one that receives nothing for the configured
// age is dropped with its bytes, while the device runs and at its next start; uploads that keep
// receiving bytes and committed files are never touched. Time is the device's clock, moved by the tests.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestDevice, type TestDevice, type TestDeviceOptions } from '../../helpers/device.ts';
import { createFile, idFromLocation, postMultipart } from '../../helpers/multipart.ts';

const TTL_SECONDS = 60;
const TTL_MS = TTL_SECONDS * 1000;
const DAY_MS = 86_400_000;

/** The device's clock; tokens from `fetchAs` live an hour of it, more than any test moves it here. */
interface Clock {
  now: number;
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function start(clock: Clock, options: TestDeviceOptions = {}): Promise<TestDevice> {
  const device = await startTestDevice({ now: () => clock.now, uploadTtlSeconds: TTL_SECONDS, ...options });
  stops.push(() => device.stop());
  return device;
}

async function startUpload(device: TestDevice, name: string, content?: string): Promise<string> {
  const response = await postMultipart(device, { name }, content, {
    path: '/sdk/v2/files/resumable',
    query: 'done=false',
  });
  expect(response.status).toBe(201);
  return idFromLocation(response);
}

function putChunk(device: TestDevice, id: string, chunk: string, query = ''): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}/resumable/content${query}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: chunk,
  });
}

/** What the data folder holds of an upload: its bytes, its item row's state, its upload row. */
function stored(device: TestDevice, id: string): { bytes: boolean; item?: string; upload: boolean } {
  const db = device.running.context.db;
  const item = db.prepare<[string], string>('SELECT state FROM items WHERE id = ?').pluck().get(id);
  const upload = db.prepare('SELECT 1 FROM resumable_uploads WHERE item_id = ?').get(id) !== undefined;
  return { bytes: existsSync(join(device.dataDir, 'uploads', id)), ...(item ? { item } : {}), upload };
}

const UNFINISHED = { bytes: true, item: 'uploading', upload: true };
const GONE = { bytes: false, upload: false };

/** Resolves when a sweep of the device's own timer drops `id`. */
function droppedByTimer(device: TestDevice, id: string): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = device.running.context.uploadSweeper.onDidSweep((dropped) => {
      if (!dropped.includes(id)) return;
      unsubscribe();
      resolve();
    });
  });
}

const sweep = (device: TestDevice): Promise<string[]> => device.running.context.uploadSweeper.sweep();

describe('an abandoned resumable upload', () => {
  it('is dropped by the running device once idle for the age: its bytes and its rows go', async () => {
    const clock = { now: Date.now() };
    const device = await start(clock, { uploadSweepIntervalMs: 10 });
    const id = await startUpload(device, 'abandoned.bin', 'first bytes');
    expect((await putChunk(device, id, ', more')).status).toBe(204);
    expect(stored(device, id)).toEqual(UNFINISHED);

    const dropped = droppedByTimer(device, id);
    clock.now += TTL_MS;
    await dropped;
    expect(stored(device, id)).toEqual(GONE);
  });

  it('stays until the whole age has passed since its last bytes', async () => {
    const clock = { now: Date.now() };
    const device = await start(clock);
    const id = await startUpload(device, 'slow.bin', 'a');
    clock.now += TTL_MS - 1;
    expect(await sweep(device)).toEqual([]);
    expect((await putChunk(device, id, 'b')).status).toBe(204);
    clock.now += TTL_MS - 1;
    expect(await sweep(device)).toEqual([]);
    expect(stored(device, id)).toEqual(UNFINISHED);
    clock.now += 1;
    expect(await sweep(device)).toEqual([id]);
    expect(stored(device, id)).toEqual(GONE);
  });

  it('answers 404 UPLOAD_NOT_FOUND with a JSON error body once dropped, on every route of the upload', async () => {
    const clock = { now: Date.now() };
    const device = await start(clock);
    const id = await startUpload(device, 'gone.bin', 'bytes');
    clock.now += TTL_MS;
    expect(await sweep(device)).toEqual([id]);
    const answers = [
      await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`),
      await putChunk(device, id, 'more'),
      await putChunk(device, id, 'more', '?offset=5'),
      await putChunk(device, id, '', '?done=true'),
      await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`, { method: 'DELETE' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answer.json()).toEqual({
        label: 'UPLOAD_NOT_FOUND',
        message: expect.any(String) as unknown,
      });
    }
    expect(stored(device, id)).toEqual(GONE);
  });

  it('is dropped at the next start when it went idle while the device was down', async () => {
    const clock = { now: Date.now() };
    const first = await start(clock);
    const stale = await startUpload(first, 'stale.bin', 'old bytes');
    clock.now += TTL_MS / 2;
    const recent = await startUpload(first, 'recent.bin', 'new bytes');
    await first.stop({ keepData: true });
    clock.now += TTL_MS / 2;

    const second = await start(clock, { dataDir: first.dataDir });
    expect(stored(second, stale)).toEqual(GONE);
    expect(stored(second, recent)).toEqual(UNFINISHED);
    expect((await second.fetchAs('alice', `/sdk/v2/files/${stale}/resumable`)).status).toBe(404);
    expect(await (await second.fetchAs('alice', `/sdk/v2/files/${recent}/resumable`)).json()).toEqual({
      id: recent,
      size: 9,
    });
  });

  it('leaves no bytes behind at start that no upload refers to (a crash after its rows went)', async () => {
    const clock = { now: Date.now() };
    const first = await start(clock);
    const kept = await startUpload(first, 'kept.bin', 'kept bytes');
    await first.stop({ keepData: true });
    const orphan = join(first.dataDir, 'uploads', 'orphanOrphanOrph');
    mkdirSync(join(first.dataDir, 'uploads'), { recursive: true });
    writeFileSync(orphan, 'bytes of an upload whose rows were dropped');

    const second = await start(clock, { dataDir: first.dataDir });
    expect(existsSync(orphan)).toBe(false);
    expect(stored(second, kept)).toEqual(UNFINISHED);
  });

  it('uses a day as the default age', async () => {
    const clock = { now: Date.now() };
    const device = await start(clock, { uploadTtlSeconds: undefined });
    expect(device.running.context.uploadSweeper.ttlSeconds).toBe(86_400);
    const id = await startUpload(device, 'a-day.bin', 'bytes');
    clock.now += DAY_MS - 1;
    expect(await sweep(device)).toEqual([]);
    expect(stored(device, id)).toEqual(UNFINISHED);
    clock.now += 1;
    expect(await sweep(device)).toEqual([id]);
    expect(stored(device, id)).toEqual(GONE);
  });
});

describe('the sweep of abandoned uploads never touches', () => {
  it('an upload that keeps receiving chunks, however long it takes in all', async () => {
    const clock = { now: Date.now() };
    const device = await start(clock);
    const id = await startUpload(device, 'steady.bin', 'chunk 0;');
    let expected = 'chunk 0;';
    for (let chunk = 1; chunk <= 5; chunk += 1) {
      clock.now += TTL_MS - 1000;
      expect(await sweep(device)).toEqual([]);
      expect((await putChunk(device, id, `chunk ${chunk};`)).status).toBe(204);
      expected += `chunk ${chunk};`;
    }
    expect((await putChunk(device, id, '', '?done=true')).status).toBe(204);
    expect(await (await device.fetchAs('alice', `/sdk/v2/files/${id}/content`)).text()).toBe(expected);
  });

  it('an upload whose bytes a request is receiving right now, even past the age', async () => {
    const clock = { now: Date.now() };
    const device = await start(clock);
    const id = await startUpload(device, 'streaming.bin');
    let feed: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (feed = controller) });
    const put = device.fetchAs('alice', `/sdk/v2/files/${id}/resumable/content`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    });
    feed?.enqueue(Buffer.from('first half, '));
    await vi.waitFor(() => expect(device.running.context.uploads.isWriting(id)).toBe(true), {
      timeout: 10_000,
    });
    clock.now += 2 * TTL_MS;
    expect(await sweep(device)).toEqual([]);
    feed?.enqueue(Buffer.from('second half'));
    feed?.close();
    expect((await put).status).toBe(204);
    // Its age now counts from the end of that request.
    clock.now += TTL_MS - 1;
    expect(await sweep(device)).toEqual([]);
    expect(await (await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`)).json()).toEqual({
      id,
      size: 23,
    });
  });

  it('a committed file, nor one whose commit left its upload row behind, across a restart', async () => {
    const clock = { now: Date.now() };
    const first = await start(clock);
    const uploaded = await startUpload(first, 'committed.bin', 'resumable bytes');
    expect((await putChunk(first, uploaded, '', '?done=true')).status).toBe(204);
    const created = await createFile(first, 'plain.txt', 'plain bytes');
    // What a device that committed without one transaction could leave after a crash.
    first.running.context.db
      .prepare(
        'INSERT INTO resumable_uploads (item_id, resolve_conflict, created_on, active_on) VALUES (?, 0, 0, 0)',
      )
      .run(uploaded);
    clock.now += 10 * TTL_MS;
    expect(await sweep(first)).toEqual([]);
    await first.stop({ keepData: true });

    const second = await start(clock, { dataDir: first.dataDir });
    for (const [id, content] of [
      [uploaded, 'resumable bytes'],
      [created.id, 'plain bytes'],
    ] as const) {
      expect(stored(second, id).item).toBe('live');
      expect(await (await second.fetchAs('alice', `/sdk/v2/files/${id}/content`)).text()).toBe(content);
    }
  });
});
