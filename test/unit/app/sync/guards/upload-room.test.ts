// The hold of uploads that cannot fit on the device (issue #33): which operations run, which wait, and their words.
import { describe, expect, it } from 'vitest';
import type { LocalEntry } from '../../../../../app/model/items.ts';
import type { Operation } from '../../../../../app/sync/plan/operations.ts';
import { fitUploads, heldUploadIssue, marginOf } from '../../../../../app/sync/guards/upload-room.ts';

const MB = 1_000_000;

function local(path: string, size: number): LocalEntry {
  return { path, kind: 'file', inode: '1', size, mtimeNs: 0n };
}

function upload(path: string, size: number): Operation {
  const parent = { kind: 'existing' as const, remoteId: 'root' };
  return {
    op: 'upload',
    path,
    name: path,
    parent,
    local: local(path, size),
    replacesRemoteId: null,
    reason: 'sync',
  };
}

function edit(path: string, size: number): Operation {
  return {
    op: 'upload-content',
    path,
    remoteId: 'r',
    ifMatch: '"e"',
    local: local(path, size),
    reason: 'sync',
  };
}

function download(path: string): Operation {
  const remote = {
    id: 'x',
    parentId: 'root',
    path,
    name: path,
    kind: 'file' as const,
    eTag: '"e"',
    size: 50 * MB,
    mTimeMs: 0,
  };
  return { op: 'download', path, remote, reason: 'sync' };
}

const paths = (operations: readonly Operation[]): string[] =>
  operations.map((operation) => ('path' in operation ? operation.path : operation.op));

describe('fitUploads', () => {
  const space = { totalBytes: 100 * MB, freeBytes: 10 * MB };
  const margin = marginOf(space.totalBytes);

  it('keeps 1 % of the device free, between 64 KiB and 256 MiB', () => {
    expect(marginOf(100 * MB)).toBe(MB);
    expect(marginOf(1 * MB)).toBe(64 * 1024);
    expect(marginOf(2_000_000 * MB)).toBe(256 * 1024 * 1024);
  });

  it('holds an upload larger than the room left, and lets smaller ones, downloads and empty files go', () => {
    const plan = [
      upload('big.raw', 12 * MB),
      download('down.bin'),
      upload('small.txt', MB),
      upload('empty', 0),
    ];
    const { operations, held } = fitUploads(plan, space, new Map());
    expect(paths(operations)).toEqual(['down.bin', 'small.txt', 'empty']);
    expect(held).toEqual([
      { path: 'big.raw', sizeBytes: 12 * MB, freeBytes: 10 * MB, missingBytes: 12 * MB - (10 * MB - margin) },
    ]);
  });

  it('counts the uploads before it in the same round: the one that no longer fits waits, a later small one goes', () => {
    const plan = [upload('a', 5 * MB), edit('b', 5 * MB), upload('c', 2 * MB)];
    const { operations, held } = fitUploads(plan, space, new Map());
    expect(paths(operations)).toEqual(['a', 'c']);
    expect(held.map((h) => [h.path, h.missingBytes])).toEqual([['b', 5 * MB - (10 * MB - margin - 5 * MB)]]);
  });

  it('holds nothing by size when the free space is not known', () => {
    const plan = [upload('big', 10_000 * MB)];
    expect(paths(fitUploads(plan, undefined, new Map()).operations)).toEqual(['big']);
  });

  it('holds a path the device refused until a reading shows more free than when it refused', () => {
    const plan = [upload('refused.bin', MB)];
    const refused = new Map([['refused.bin', 10 * MB]]);
    const same = fitUploads(plan, space, refused);
    expect(paths(same.operations)).toEqual([]);
    expect(same.held).toEqual([{ path: 'refused.bin', sizeBytes: MB, freeBytes: 10 * MB, missingBytes: 0 }]);
    const grown = fitUploads(plan, { ...space, freeBytes: 10 * MB + 1 }, refused);
    expect(paths(grown.operations)).toEqual(['refused.bin']);
    // Refused with no figure known, and none known now: it waits (a pass that is not a poll forgets).
    expect(paths(fitUploads(plan, undefined, new Map([['refused.bin', undefined]])).operations)).toEqual([]);
  });
});

describe('heldUploadIssue', () => {
  it('names the file, its size, the free space and what is missing, and says it is sent when there is room', () => {
    const issue = heldUploadIssue({
      path: 'Photos/photo.raw',
      sizeBytes: 2.1e9,
      freeBytes: 1.4e9,
      missingBytes: 0.7e9,
    });
    expect(issue).toEqual({
      kind: 'failed',
      remedy: 'needs-you',
      code: 'DEVICE_FULL',
      path: 'Photos/photo.raw',
      message:
        'photo.raw (2.1 GB) does not fit on the device: 1.4 GB free, 700 MB missing. Free space on the device; it is sent when there is room.',
    });
  });

  it('says the device refused it when its figure said it fits, or when it gives none', () => {
    expect(
      heldUploadIssue({ path: 'a.bin', sizeBytes: MB, freeBytes: 5 * MB, missingBytes: 0 }).message,
    ).toBe(
      'a.bin (1.0 MB) was refused by the device for want of space, with 5.0 MB free. Free space on the device; it is sent when more is free.',
    );
    expect(
      heldUploadIssue({ path: 'a.bin', sizeBytes: MB, freeBytes: undefined, missingBytes: 0 }).message,
    ).toBe(
      'a.bin (1.0 MB) was refused by the device: it is full. Free space on the device; it is sent when there is room.',
    );
  });
});
