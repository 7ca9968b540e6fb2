// The control socket's versions request for real: carried out and answered, and dropped when its client gave up waiting before its turn came.
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { SyncStatus } from '../../../../common/sync-status.ts';
import { askService } from '../../../../app/live-service/control-client.ts';
import { startControlServer } from '../../../../app/live-service/control-server.ts';
import { controlSocketPath } from '../../../../app/live-service/control-socket-path.ts';
import type { VersionsAction, VersionsOutcome } from '../../../../app/versions/versions-actions.ts';
import { waitFor } from '../../../helpers/on-demand-cli.ts';

const status: SyncStatus = {
  state: 'idle',
  detail: null,
  localRoot: '/home/ann/MyCloud',
  remoteFolder: '/MyCloud',
  progress: null,
  lastSyncAtMs: null,
  activity: [],
  issues: [],
  pid: process.pid,
};

const cleared: VersionsOutcome = { kind: 'cleared', count: 2, bytes: 10 };

describe('the versions request over the socket', () => {
  it('is answered with what the service did; a client that keeps its side open and gives up waiting aborts its request', async ({
    tempDir,
  }) => {
    const seen: Array<{ action: VersionsAction; signal: AbortSignal | undefined }> = [];
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const server = await startControlServer({
      socketPath: controlSocketPath(tempDir, '/home/ann/MyCloud'),
      handler: {
        status: () => status,
        pause: () => {},
        resume: () => {},
        syncNow: () => {},
        confirmDeletes: () => {},
        restore: () => {},
        versions: async (action, signal) => {
          seen.push({ action, signal });
          // The second request waits, as one waits for a pass under way.
          if (seen.length === 2) await blocked;
          return cleared;
        },
      },
    });
    try {
      const answer = await askService(server.socketPath, { op: 'versions', action: { kind: 'clear' } });
      expect(answer).toEqual({ ok: true, status, versions: cleared });

      const gaveUp = askService(
        server.socketPath,
        { op: 'versions', action: { kind: 'restore', path: 'a.txt' }, keepsOpen: true },
        { timeoutMs: 200 },
      );
      await expect(gaveUp).rejects.toMatchObject({ code: 'CONTROL_TIMEOUT' });
      await waitFor('the request aborted', () => (seen[1]?.signal?.aborted === true ? true : undefined));
      expect(seen[0]?.signal).toBeUndefined();
    } finally {
      release();
      await server.close();
    }
  });
});
