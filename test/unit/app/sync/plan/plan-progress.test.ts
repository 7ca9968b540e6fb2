// Progress of a plan: items and bytes done, the transfers running now.
import { describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../../../common/sync-status.ts';
import type { LocalEntry, RemoteEntry } from '../../../../../app/model/items.ts';
import type { Operation } from '../../../../../app/sync/plan/operations.ts';
import { PlanProgress } from '../../../../../app/sync/plan/plan-progress.ts';

const local: LocalEntry = { path: 'up.bin', kind: 'file', inode: '1', size: 100, mtimeNs: 1n };
const remote: RemoteEntry = {
  id: 'r',
  parentId: 'root',
  path: 'down.bin',
  name: 'down.bin',
  kind: 'file',
  eTag: 'e',
  size: 50,
  mTimeMs: 1,
};
const operations: Operation[] = [
  {
    op: 'upload',
    path: 'up.bin',
    name: 'up.bin',
    parent: { kind: 'existing', remoteId: 'root' },
    local,
    replacesRemoteId: null,
    reason: 'sync',
  },
  { op: 'download', path: 'down.bin', remote, reason: 'sync' },
  { op: 'local-mkdir', path: 'dir', remote: { ...remote, kind: 'folder', size: 0 }, reason: 'sync' },
];

describe('PlanProgress', () => {
  it('counts bytes of finished and running transfers and lists the running ones', () => {
    const seen: SyncProgress[] = [];
    const progress = new PlanProgress(3, operations, (report) => seen.push(report));
    expect(seen.at(-1)).toMatchObject({ itemsDone: 0, itemsTotal: 3, bytesDone: 0, bytesTotal: 150 });
    const up = progress.started('up.bin', 'up', 100);
    up(40);
    expect(seen.at(-1)).toMatchObject({
      bytesDone: 40,
      transfers: [{ path: 'up.bin', bytesDone: 40, bytesTotal: 100 }],
    });
    progress.itemEnded('up.bin', 'counted');
    expect(seen.at(-1)).toMatchObject({ itemsDone: 1, bytesDone: 100, transfers: [] });
    progress.started('down.bin', 'down', 50)(500);
    expect(seen.at(-1)?.bytesDone).toBe(150);
    progress.itemEnded('dir', 'counted');
    expect(seen.at(-1)).toMatchObject({ itemsDone: 2, transfers: [{ path: 'down.bin', direction: 'down' }] });
  });

  it('lists a transfer from the start of its operation, starting, until its bytes flow', () => {
    const seen: SyncProgress[] = [];
    const progress = new PlanProgress(3, operations, (report) => seen.push(report));
    progress.starting('up.bin', 'up', 100);
    expect(seen.at(-1)?.transfers).toEqual([
      { path: 'up.bin', direction: 'up', bytesDone: 0, bytesTotal: 100, starting: true },
    ]);
    progress.started('up.bin', 'up', 100)(10);
    expect(seen.at(-1)?.transfers).toEqual([
      { path: 'up.bin', direction: 'up', bytesDone: 10, bytesTotal: 100 },
    ]);
    progress.itemEnded('up.bin', 'counted');
    expect(seen.at(-1)).toMatchObject({ bytesDone: 100, transfers: [] });
  });
});
