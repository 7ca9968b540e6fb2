// Items not on the device yet: asks the folder's running live sync to sync now and waits (bounded) until its index holds them.
import { setTimeout as sleep } from 'node:timers/promises';
import { assertNever } from '../../common/errors.ts';
import type { SyncStatus } from '../../common/sync-status.ts';
import { formatDuration } from '../../common/units.ts';
import { askService } from '../live-service/control-client.ts';
import { controlSocketPath } from '../live-service/control-socket-path.ts';
import { ShareError } from './share-errors.ts';
import { lookUpSyncedItems, type LocalItem, type SyncedItem } from './shared-items.ts';

export interface UploadWaitOptions {
  profileDir: string;
  /** Said once per folder before waiting (the command prints it). */
  onWaiting: (message: string) => void;
  /** desktop-app.md §4: "it is synced first when the service runs"; a minute, then give up. */
  timeoutMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
}

const STATUS_EVERY_MS = 1000;

/**
 * Returns the items once each is synced. Without a running live sync for an item's folder, or when
 * that sync cannot upload it (paused, held, the item skipped or failed), fails at once saying what to
 * do; after the timeout fails saying where to look.
 */
export async function waitForUploads(
  items: readonly LocalItem[],
  options: UploadWaitOptions,
): Promise<SyncedItem[]> {
  const done: SyncedItem[] = [];
  for (const group of Map.groupBy(items, (item) => item.pair.localRoot).values()) {
    done.push(...(await waitForFolder(group, options)));
  }
  return done;
}

async function waitForFolder(items: LocalItem[], options: UploadWaitOptions): Promise<SyncedItem[]> {
  const first = items[0];
  if (first === undefined) return [];
  const root = first.pair.localRoot;
  const socket = controlSocketPath(options.profileDir, root);
  const askOptions = options.signal === undefined ? {} : { signal: options.signal };
  const started = await askService(socket, { op: 'sync-now' }, askOptions);
  if (started === undefined) {
    throw new ShareError(
      'NOT_UPLOADED_YET',
      `${describe(items)} not on the device yet, and no live sync runs for ${root}. Sync it first ` +
        `(\`mch-sync run --folder ${quote(root)} --once\`, or start live sync without --once), then share again.`,
    );
  }
  checkCanUpload(
    started.ok ? started.status : undefined,
    items,
    started.ok ? undefined : started.error.message,
  );
  options.onWaiting(
    `Waiting for the running sync of ${root} to upload ${describe(items, false)} (up to a minute)…`,
  );
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let pending = items;
  const synced: SyncedItem[] = [];
  let nextStatusAt = Date.now() + STATUS_EVERY_MS;
  for (;;) {
    const found = lookUpSyncedItems(pending);
    synced.push(...found.synced);
    pending = found.notYet;
    if (pending.length === 0) return synced;
    if (Date.now() >= deadline) break;
    await sleep(options.pollMs ?? 250, undefined, askOptions);
    if (Date.now() >= nextStatusAt) {
      nextStatusAt = Date.now() + STATUS_EVERY_MS;
      const answer = await askService(socket, { op: 'status' }, askOptions);
      if (answer === undefined) {
        throw new ShareError(
          'NOT_UPLOADED_YET',
          `The live sync of ${root} stopped before ${describe(pending, false)} uploaded. Start it again, then share again.`,
        );
      }
      checkCanUpload(
        answer.ok ? answer.status : undefined,
        pending,
        answer.ok ? undefined : answer.error.message,
      );
    }
  }
  throw new ShareError(
    'NOT_UPLOADED_YET',
    `${describe(pending)} still not on the device after ${formatDuration(Math.round(timeoutMs / 1000))}. See \`mch-sync status --folder ${quote(root)}\` ` +
      `for what the sync is doing, then share again.`,
  );
}

/** Fails when the service cannot upload these items now, with its own words for why. */
function checkCanUpload(
  status: SyncStatus | undefined,
  items: readonly LocalItem[],
  refusal: string | undefined,
): void {
  if (status === undefined) {
    throw new ShareError(
      'NOT_UPLOADED_YET',
      `The live sync refused to sync now: ${refusal ?? 'no reason given'}.`,
    );
  }
  const root = status.localRoot;
  switch (status.state) {
    case 'paused':
      throw new ShareError(
        'NOT_UPLOADED_YET',
        `${describe(items)} not on the device yet and the sync of ${root} is paused: ` +
          `\`mch-sync resume --folder ${quote(root)}\`, then share again.`,
      );
    case 'held':
    case 'sign-in-needed':
      throw new ShareError(
        'NOT_UPLOADED_YET',
        `${describe(items)} not on the device yet: the sync of ${root} waits (${status.detail ?? status.state}).`,
      );
    // Offline or failed passes are retried by the service; the wait's own limit ends a hopeless one.
    case 'idle':
    case 'scanning':
    case 'syncing':
    case 'offline':
    case 'error':
      break;
    default:
      assertNever(status.state, 'engine state');
  }
  const paths = new Set(items.map((item) => item.relativePath));
  const blocking = status.issues.find(
    (issue) => paths.has(issue.path) && (issue.kind === 'skipped' || issue.kind === 'failed'),
  );
  if (blocking !== undefined) {
    throw new ShareError(
      'NOT_UPLOADED_YET',
      `${blocking.path} cannot be uploaded, so it cannot be shared: ${blocking.message}`,
    );
  }
}

/** "PATH is" or "N items are" (with `verb: false`, without the verb). */
function describe(items: readonly LocalItem[], verb = true): string {
  const subject = items.length === 1 ? (items[0]?.path ?? '') : `${items.length} items`;
  if (!verb) return subject;
  return `${subject} ${items.length === 1 ? 'is' : 'are'}`;
}

function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
