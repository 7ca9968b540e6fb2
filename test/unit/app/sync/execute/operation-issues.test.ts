// A failed operation becomes its item's issue: words without device ids, classed by what the user can do.
import { describe, expect, it } from 'vitest';
import { DeviceError, InvalidNameError, NetworkError } from '../../../../../common/errors.ts';
import { ReplanNeeded } from '../../../../../app/sync/execute/replan-needed.ts';
import { TrashError } from '../../../../../app/sync/trash/local-trash.ts';
import type { RemoteEntry } from '../../../../../app/model/items.ts';
import { issueFor } from '../../../../../app/sync/execute/operation-issues.ts';
import type { Operation } from '../../../../../app/sync/plan/operations.ts';

const REMOTE: RemoteEntry = {
  id: 'Xy7dEviceId',
  parentId: 'root',
  name: 'big.bin',
  path: 'docs/big.bin',
  kind: 'file',
  eTag: '"1"',
  size: 10,
  mTimeMs: 0,
};
const DOWNLOAD: Operation = { op: 'download', path: 'docs/big.bin', remote: REMOTE, reason: 'sync' };
const TRASH: Operation = {
  op: 'local-trash',
  path: 'old.txt',
  inode: '1',
  kind: 'file',
  reason: 'sync',
};

function errno(code: string): Error {
  return Object.assign(new Error(`${code}: something, open '/tmp/x/..mch-dl-123.mch-partial'`), { code });
}

describe('issueFor', () => {
  it('words a broken connection without the device id, to be tried again', () => {
    const error = new NetworkError(
      'NETWORK',
      `Could not download ${REMOTE.id}: ECONNRESET; will try again later.`,
    );
    const { issue, replan } = issueFor(DOWNLOAD, error);
    expect(issue).toEqual({
      kind: 'retry',
      remedy: 'retry-later',
      path: 'docs/big.bin',
      code: 'NETWORK',
      message: 'The connection to the device broke while it was downloaded; the next run tries again.',
    });
    expect(replan).toBe(false);
  });

  it('takes a file system error of a download for this disk, never for the network', () => {
    const { issue, replan } = issueFor(DOWNLOAD, errno('EACCES'));
    expect(issue).toMatchObject({ kind: 'failed', remedy: 'needs-you', code: 'PERMISSION_DENIED' });
    expect(issue.message).toMatch(/^It cannot be written here: permission denied\./);
    expect(issue.message).not.toContain('.mch-dl-');
    expect(replan).toBe(false);
  });

  it('plans again only when the disk changed meanwhile', () => {
    expect(issueFor(DOWNLOAD, errno('ENOENT'))).toMatchObject({
      issue: { kind: 'retry', code: 'CHANGED_MEANWHILE' },
      replan: true,
    });
    expect(
      issueFor(DOWNLOAD, new ReplanNeeded('LOCAL_CHANGED', 'docs/big.bin', 'It changed.')),
    ).toMatchObject({
      issue: { kind: 'retry', remedy: 'retry-later', code: 'LOCAL_CHANGED' },
      replan: true,
    });
  });

  it('says a refusal of the device needs the user, and a name that cannot be stored never syncs as it is', () => {
    const refused = issueFor(
      DOWNLOAD,
      new DeviceError('BAD_REQUEST', 'Refused', `refused ${REMOTE.id}`, { label: 'X' }),
    );
    expect(refused.issue).toMatchObject({ kind: 'failed', remedy: 'needs-you', code: 'BAD_REQUEST' });
    expect(refused.issue.message).not.toContain(REMOTE.id);
    const upload = { op: 'upload', path: 'a\\b.txt', name: 'a\\b.txt' } as Operation;
    const named = issueFor(upload, new InvalidNameError('a\\b.txt', 'contains "\\"'));
    expect(named.issue).toMatchObject({ kind: 'failed', remedy: 'never-as-is', code: 'INVALID_NAME' });
    expect(named.issue.message).toContain('which mch-sync does not sync');
  });

  it('says a trash that could not take the item, for no file system reason, needs the user', () => {
    const none = new TrashError('TRASH_FAILED', '/x/old.txt', 'no free name in /x/.mch-sync/trash');
    const { issue } = issueFor(TRASH, none);
    expect(issue).toMatchObject({
      kind: 'failed',
      remedy: 'needs-you',
      code: 'TRASH_FAILED',
      path: 'old.txt',
    });
    expect(issue.message).toBe(
      'It was deleted on the device, but no trash here could take it; it stays where it is and the next run tries again.',
    );
  });

  it('says a full device needs the user, not another try', () => {
    const full = new DeviceError('SERVER_ERROR', 'Failing', 'x', { label: 'INSUFFICIENT_STORAGE' });
    const upload = { op: 'upload', path: 'big.iso', name: 'big.iso' } as Operation;
    expect(issueFor(upload, full).issue).toMatchObject({
      kind: 'failed',
      remedy: 'needs-you',
      code: 'DEVICE_FULL',
      message:
        'The device is full, so it could not be uploaded: free some space on it; the next run tries again.',
    });
  });

  it('throws what is no item’s problem', () => {
    expect(() => issueFor(DOWNLOAD, new Error('a bug'))).toThrow('a bug');
  });
});
