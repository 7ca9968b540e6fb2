// A pass's progress as the window sees it: an upload is listed from the start of its operation (while its file is read to send one version of it), then counts its bytes as they go.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { SyncProgress, TransferProgress } from '../../../../common/sync-status.ts';
import { SyncPair } from '../../../helpers/sync-pair.ts';

describe('progress of a pass', () => {
  it('lists an upload before its first byte moves, then counts its bytes', async ({ device }) => {
    const seen: SyncProgress[] = [];
    const pair = new SyncPair(device, {
      engine: { events: { onProgress: (progress) => seen.push(progress) } },
    });
    try {
      // Larger than what is read into memory at once: hashed from the file, then sent from it.
      writeFileSync(pair.local('big.bin'), randomBytes(6 * 1024 * 1024));
      await pair.sync();
      const big = seen
        .map((progress) => progress.transfers.find((transfer) => transfer.path === 'big.bin'))
        .filter((transfer): transfer is TransferProgress => transfer !== undefined);
      expect(big[0]).toEqual({
        path: 'big.bin',
        direction: 'up',
        bytesDone: 0,
        bytesTotal: 6 * 1024 * 1024,
        starting: true,
      });
      const sending = big.findIndex((transfer) => transfer.starting !== true);
      expect(sending).toBeGreaterThan(0);
      // Once it sends, it never goes back to starting, and its bytes only grow.
      expect(big.slice(sending).every((transfer) => transfer.starting === undefined)).toBe(true);
      const bytes = big.slice(sending).map((transfer) => transfer.bytesDone);
      expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
      expect(bytes.at(-1)).toBe(6 * 1024 * 1024);
    } finally {
      pair.close();
    }
  });
});
