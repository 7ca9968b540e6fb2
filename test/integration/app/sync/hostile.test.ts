// Remote names that could escape the synced folder (.., a/b, \, overlong, empty) are reported, never written, never deleted.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { TestDevice } from '../../../helpers/device.ts';

/** Renames an item in the device's database, past the checks of its API. */
function forceName(device: TestDevice, id: string, name: string): void {
  device.running.context.db.prepare('UPDATE items SET name = ? WHERE id = ?').run(name, id);
}

function liveNames(device: TestDevice, ids: readonly string[]): string[] {
  const statement = device.running.context.db.prepare<[string], { name: string }>(
    "SELECT name FROM items WHERE id = ? AND state = 'live'",
  );
  return ids.map((id) => statement.get(id)?.name ?? '(gone)');
}

const HOSTILE_FILES = ['.', '..\\..\\win.txt', '../../up.txt', 'a/b', 'x'.repeat(300), ''];

describe('hostile remote names', () => {
  it('never writes outside the synced folder, reports the items and leaves them on the device', async ({
    device,
    newPair,
  }) => {
    const pair = newPair();
    const ids: string[] = [];
    for (const [index, name] of HOSTILE_FILES.entries()) {
      const id = await pair.writeRemote(`hostile-${index}.txt`, `payload ${index}`);
      forceName(device, id, name);
      ids.push(id);
    }
    // A folder called ".." holding a file: written naively, it would land beside the synced folder.
    const dotDot = await pair.mkdirRemote('dot-dot');
    await pair.writeRemote('dot-dot/escape.txt', 'escaped');
    forceName(device, dotDot, '..');
    ids.push(dotDot);
    // The same one level down.
    const nested = await pair.writeRemote('inner/nested.txt', 'nested');
    forceName(device, nested, '..');
    ids.push(nested);
    await pair.writeRemote('normal.txt', 'fine');

    const first = await pair.sync();
    const second = await pair.sync();

    // Beside the synced folder there is only what the test made.
    expect(readdirSync(pair.dir).sort()).toEqual(['home', 'local']);
    expect(existsSync(join(pair.dir, '..', 'up.txt'))).toBe(false);
    expect(existsSync(join(pair.dir, 'escape.txt'))).toBe(false);
    const local = pair.localTree();
    expect(local['normal.txt']).toEqual({ kind: 'file', text: 'fine' });
    expect(local['inner']).toEqual({ kind: 'folder' });
    expect(Object.keys(local).sort()).toEqual(['inner', 'normal.txt']);
    // Each hostile item is reported (by the pass that met it), not silently dropped.
    expect(first.issues.length).toBeGreaterThanOrEqual(HOSTILE_FILES.length + 2);
    // Not synced, and never will be as named: the pass says so (issue 27), it does not say "synced".
    expect(first.status).toBe('errors');
    expect(first.issues.every((issue) => issue.kind === 'failed' && issue.remedy === 'never-as-is')).toBe(
      true,
    );
    // Unknown to the client is never "deleted here": the device still has every one of them.
    expect(liveNames(device, ids)).toEqual([...HOSTILE_FILES, '..', '..']);
    expect(second.counts.deleted).toBe(0);
  });

  it('syncs a name with control characters inside the folder', async ({ newPair }) => {
    const pair = newPair();
    const name = 'bell\u0007 escape\u001b.txt';
    await pair.writeRemote(name, 'odd but allowed');
    const report = await pair.sync();
    expect(report.issues.filter((issue) => issue.kind === 'failed')).toEqual([]);
    expect(pair.localTree()).toEqual({ [name]: { kind: 'file', text: 'odd but allowed' } });
    expect(readdirSync(pair.dir).sort()).toEqual(['home', 'local']);
  });
});
