// The share action's failures in the window's words: which view each opens, and no command to type.
import { describe, expect, it } from 'vitest';
import type { PairView } from '../../../../common/contract.ts';
import { DeviceError, MchError, NetworkError } from '../../../../common/errors.ts';
import { failureNotice } from '../../../../app/desktop/share-action.ts';
import { ShareError } from '../../../../app/share/share-errors.ts';

const pair = (overrides: Partial<PairView>): PairView => ({
  id: 'docs',
  localRoot: '/home/ann/Docs',
  remoteFolder: '/Docs',
  state: 'idle',
  words: 'Up to date',
  detail: null,
  paused: false,
  progress: null,
  lastSyncAtMs: null,
  itemsSynced: 3,
  issueCount: 0,
  conflictCount: 0,
  leftOut: { ignored: 0, systemFiles: 0 },
  hold: null,
  answering: null,
  selection: null,
  ...overrides,
});

describe('failureNotice', () => {
  const paths = ['/home/ann/Docs/a.txt'];

  it('keeps a message that names no command, and drops one that does', () => {
    const plain = new ShareError(
      'NOT_UPLOADED_YET',
      'a.txt cannot be uploaded, so it cannot be shared: too large',
    );
    expect(failureNotice(plain, { pairs: [pair({})], paths })).toMatchObject({
      outcome: 'failed',
      title: 'Not uploaded yet',
      body: plain.message,
      view: 'issues',
      code: 'NOT_UPLOADED_YET',
      url: null,
    });
    const command = new ShareError('NOT_UPLOADED_YET', 'still not there: see `mch-sync status --folder X`');
    const notice = failureNotice(command, { pairs: [pair({})], paths });
    expect(notice.body).not.toContain('`');
    expect(notice.body).toMatch(/Status and Issues/);
  });

  it('names the paused folder of the shared item', () => {
    const error = new ShareError('NOT_UPLOADED_YET', 'paused: `mch-sync resume`');
    const notice = failureNotice(error, {
      pairs: [pair({ id: 'other', localRoot: '/home/ann/Docs2', paused: true }), pair({ paused: true })],
      paths,
    });
    expect(notice).toMatchObject({ view: 'status' });
    expect(notice.body).toContain('Syncing of /home/ann/Docs is paused');
  });

  it('sends a busy or unreachable device to Status, an unexpected error too', () => {
    const busy = new DeviceError('SERVER_ERROR', 'Device error', 'failed; will try again later');
    expect(failureNotice(busy, { pairs: [], paths })).toMatchObject({ title: 'Device busy', view: 'status' });
    const down = new NetworkError('NETWORK', 'connect ECONNREFUSED');
    expect(failureNotice(down, { pairs: [], paths })).toMatchObject({
      title: 'Device unreachable',
      view: 'status',
      code: 'NETWORK',
    });
    expect(failureNotice(new TypeError('x is undefined'), { pairs: [], paths })).toMatchObject({
      title: 'Could not make a share link',
      body: 'Something went wrong: x is undefined',
      code: 'BUG',
    });
    expect(failureNotice(new MchError('ODD', 'Odd', 'An odd failure.'), { pairs: [], paths })).toMatchObject({
      title: 'Odd',
      body: 'An odd failure.',
      view: 'status',
    });
  });
});
