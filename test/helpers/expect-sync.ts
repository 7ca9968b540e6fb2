// Assertions on sync pairs and pass reports: a pass synced, both sides hold the same tree, a file holds a text.
import { expect } from 'vitest';
import type { PassReport } from '../../app/sync/pass-report.ts';
import { files, type SyncPair } from './sync-pair.ts';

/** The pass ended synced; a failure lists the pass's issues. */
export function expectSynced(report: Pick<PassReport, 'status' | 'issues'>): void {
  expect(report.status, `issues: ${JSON.stringify(report.issues)}`).toBe('synced');
}

/** The device folder holds exactly what the local folder holds (names, kinds and texts). */
export async function expectTreesEqual(pair: SyncPair): Promise<void> {
  expect(await pair.remoteTree()).toEqual(pair.localTree());
}

/** The device folder holds exactly these files (path → text) and the folders they are in. */
export async function expectRemoteFiles(pair: SyncPair, texts: Record<string, string>): Promise<void> {
  expect(await pair.remoteTree()).toEqual(files(texts));
}

/** The local file at `path` (relative to the pair's local root) holds `text`. */
export function expectLocalText(pair: SyncPair, path: string, text: string): void {
  expect(pair.readLocal(path)).toBe(text);
}
