// BodyWriter against real files: order, positions, gathering, backpressure and a failed write.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BodyWriter } from '../../../../app/api/body-writer.ts';

describe('BodyWriter', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mch-body-writer-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const chunks = (count: number, size: number): Buffer[] =>
    Array.from({ length: count }, (_, i) => Buffer.alloc(size, i % 251));

  it('writes every chunk in order from its position, gathering chunks that arrive during a write', async () => {
    const path = join(dir, 'file');
    writeFileSync(path, 'head');
    const file = await open(path, 'r+');
    const seen: number[] = [];
    const writer = new BodyWriter(file, 4, (written) => seen.push(written));
    const parts = chunks(200, 65_536);
    for (const part of parts) await writer.add(part);
    expect(writer.received).toBe(4 + 200 * 65_536);
    await writer.flush();
    await file.close();
    expect(readFileSync(path).equals(Buffer.concat([Buffer.from('head'), ...parts]))).toBe(true);
    expect(writer.written).toBe(4 + 200 * 65_536);
    // Each report a new end, the last the whole; fewer writes than chunks.
    expect(seen.at(-1)).toBe(writer.written);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen.length).toBeLessThan(200);
  });

  it('holds at most about 8 MiB before add waits for the disk', async () => {
    const file = await open(join(dir, 'file'), 'w+');
    const writer = new BodyWriter(file, 0, () => undefined);
    let most = 0;
    for (const part of chunks(400, 65_536)) {
      await writer.add(part);
      most = Math.max(most, writer.received - writer.written);
    }
    await writer.flush();
    await file.close();
    expect(most).toBeLessThanOrEqual((8 << 20) + 65_536);
    expect(writer.written).toBe(400 * 65_536);
  });

  it('rejects flush and the next add with the write error, and moves written no further', async () => {
    const path = join(dir, 'read-only');
    writeFileSync(path, '');
    const file = await open(path, 'r');
    const writer = new BodyWriter(file, 0, () => undefined);
    await writer.add(Buffer.from('lost'));
    await expect(writer.flush()).rejects.toMatchObject({ code: 'EBADF' });
    await expect(writer.add(Buffer.from('more'))).rejects.toMatchObject({ code: 'EBADF' });
    expect(writer.written).toBe(0);
    await file.close();
  });
});
