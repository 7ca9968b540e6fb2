// Runs a plan in order, transfers and independent renames a few at a time, each failure kept to its item.
import { AbortedError, ApiError, assertNever, BugError } from '../../../common/errors.ts';
import { createRemoteFolder, upload } from './execute-create.ts';
import { deleteRemote, moveRemote } from './execute-remote.ts';
import { uploadContent } from './execute-edit.ts';
import { download, downloadContent, makeLocalFolder, moveLocal } from './execute-local.ts';
import { trashLocal } from './execute-trash.ts';
import { indexPathIn } from './execute-shared.ts';
import { currentETag, type ExecutionContext } from './execution-context.ts';
import { independentMoveRun } from '../plan/move-batches.ts';
import type { IndexEntry } from '../../model/items.ts';
import { issueFor, pathOf } from './operation-issues.ts';
import type { Operation } from '../plan/operations.ts';
import { PlanProgress, transferOf } from '../plan/plan-progress.ts';
import { baseName } from '../../model/paths.ts';

export const DEFAULT_TRANSFER_CONCURRENCY = 4;

export interface ExecutionResult {
  /** Some operation met a state other than the planned one: plan again from a fresh look. */
  replan: boolean;
}

const TRANSFERS = new Set<Operation['op']>(['upload', 'upload-content', 'download', 'download-content']);

/** Errors that end the pass: nothing else would work either (no network, no sign-in) or a bug. */
function isFatal(error: unknown): boolean {
  if (error instanceof BugError || error instanceof AbortedError) return true;
  if (!(error instanceof ApiError)) return false;
  return ['ABORTED', 'NETWORK', 'TIMEOUT', 'DEVICE_UNREACHABLE', 'AUTH_REQUIRED', 'INSECURE_URL'].includes(
    error.code,
  );
}

/**
 * A transfer whose connection keeps breaking ends only that item's try when the device still answers a
 * small request: one bad transfer must not stop the pass, a device that is gone must.
 */
async function onlyThisItem(context: ExecutionContext, error: unknown): Promise<boolean> {
  if (!(error instanceof ApiError) || (error.code !== 'NETWORK' && error.code !== 'TIMEOUT')) return false;
  try {
    await context.setup.client.getFile(context.setup.remoteRootId, { signal: context.setup.signal });
    return true;
  } catch {
    return false;
  }
}

/** The technical detail of an item's failure, for the log. */
function detailOf(error: unknown): string {
  if (error instanceof ApiError) return error.describe();
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The activity line an operation makes, or null for index-only bookkeeping. */
function activityOf(operation: Operation): string | null {
  switch (operation.op) {
    case 'upload':
    case 'upload-content':
      return 'uploaded';
    case 'download':
    case 'download-content':
      return 'downloaded';
    case 'remote-create-folder':
    case 'local-mkdir':
      return 'created-folder';
    case 'remote-move':
    case 'local-move':
      return operation.reason === 'conflict' ? 'conflict' : 'moved';
    case 'remote-delete':
    case 'local-trash':
      return 'deleted';
    case 'index-update':
    case 'index-remove':
      return null;
    default:
      return assertNever(operation, 'operation');
  }
}

/**
 * Carries out one operation; a download that placed a placeholder says so (`online-only`). A transfer
 * calls `release` once its bytes have moved, while it waits for its batch of index writes.
 */
async function run(
  context: ExecutionContext,
  operation: Operation,
  release: (() => void) | undefined,
): Promise<'online-only' | void> {
  switch (operation.op) {
    case 'remote-create-folder':
      return createRemoteFolder(context, operation);
    case 'upload':
      return upload(context, operation, release);
    case 'upload-content':
      return uploadContent(context, operation);
    case 'remote-move':
      return moveRemote(context, operation);
    case 'remote-delete':
      return deleteRemote(context, operation);
    case 'local-mkdir':
      return makeLocalFolder(context, operation);
    case 'download':
      return download(context, operation, release);
    case 'download-content':
      return downloadContent(context, operation);
    case 'local-move':
      return moveLocal(context, operation);
    case 'local-trash':
      return trashLocal(context, operation);
    case 'index-update':
      return updateIndex(context, operation);
    case 'index-remove':
      context.setup.index.store.delete(operation.remoteId);
      return;
    default:
      return assertNever(operation, 'operation');
  }
}

/** Both sides agree already: record them, at the path the parent has now (after this pass's moves). */
function updateIndex(context: ExecutionContext, op: Extract<Operation, { op: 'index-update' }>): void {
  const store = context.setup.index.store;
  const { local, remote } = op;
  const name = baseName(local.path);
  // A re-created folder's row is taken over after this pass moved it (seed 20012): where it went, not
  // where the walk saw it.
  const parentId = context.ledger.movedTo.get(remote.id) ?? remote.parentId;
  const path = indexPathIn(context, parentId, name) ?? local.path;
  const previous = store.get(op.replacesRemoteId ?? remote.id);
  const sameLocal = previous?.localSize === local.size && previous.localMtimeNs === local.mtimeNs;
  const entry: IndexEntry = {
    remoteId: remote.id,
    parentRemoteId: parentId,
    path,
    name,
    kind: remote.kind,
    eTag: currentETag(context, remote.id, remote.eTag),
    size: remote.size,
    mTimeMs: remote.mTimeMs,
    inode: local.inode,
    localSize: local.size,
    localMtimeNs: local.mtimeNs,
    contentHash: sameLocal && remote.kind === 'file' ? previous.contentHash : null,
  };
  if (op.replacesRemoteId === undefined) context.setup.index.place(entry);
  else context.setup.index.replace(op.replacesRemoteId, entry);
}

/** One plan as it runs: its context, its progress, and whether an operation asked for another round. */
interface Execution {
  readonly context: ExecutionContext;
  readonly progress: PlanProgress;
  replan: boolean;
}

export async function executePlan(
  context: ExecutionContext,
  operations: readonly Operation[],
  concurrency = DEFAULT_TRANSFER_CONCURRENCY,
): Promise<ExecutionResult> {
  for (const operation of operations) {
    if (operation.op === 'remote-move') context.ledger.pendingRemoteMoves.add(operation.remoteId);
    if (operation.op === 'remote-delete') context.ledger.pendingRemoteDeletes.add(operation.remoteId);
  }
  const itemsTotal = operations.filter((operation) => activityOf(operation) !== null).length;
  const progress = new PlanProgress(itemsTotal, operations, context.setup.onProgress);
  context.ledger.transferStarted = (path, direction, bytes) => progress.started(path, direction, bytes);
  context.ledger.transferEnded = (path) => progress.transferEnded(path);
  const execution: Execution = { context, progress, replan: false };
  const attempt = (operation: Operation, release?: () => void): Promise<void> =>
    attemptOperation(execution, operation, release);
  const flush = (): void => {
    context.ledger.placements.flush();
    context.ledger.createdRows.flush();
  };
  for (let position = 0; position < operations.length;) {
    const operation = operations[position] as Operation;
    if (!TRANSFERS.has(operation.op)) {
      // Renames that cannot meet each other are one PATCH each: a burst of them goes a few at a time.
      const end = operation.op === 'remote-move' ? independentMoveRun(operations, position) : position + 1;
      if (end - position > 1) await pool(operations.slice(position, end), concurrency, attempt, flush);
      else await attempt(operation);
      position = end;
      continue;
    }
    await runDeferred(execution);
    let end = position;
    while (end < operations.length && TRANSFERS.has((operations[end] as Operation).op)) end += 1;
    await pool(operations.slice(position, end), concurrency, attempt, flush);
    position = end;
  }
  await runDeferred(execution);
  return { replan: execution.replan };
}

/** Runs one operation; a failure of its item alone becomes an issue, one that ends the pass is thrown. */
async function attemptOperation(
  execution: Execution,
  operation: Operation,
  release?: () => void,
): Promise<void> {
  const { context, progress } = execution;
  if (context.setup.signal?.aborted) throw new AbortedError();
  const action = activityOf(operation);
  // Listed from the operation's start, not its first byte: an upload reads its whole file first.
  const transfer = transferOf(operation);
  if (transfer !== null) progress.starting(pathOf(operation), transfer.direction, transfer.bytes);
  try {
    const placed = await run(context, operation, release);
    context.ledger.operations[operation.op] = (context.ledger.operations[operation.op] ?? 0) + 1;
    if (action !== null) {
      const atMs = context.setup.now().getTime();
      context.setup.onActivity({ atMs, action: placed ?? action, path: pathOf(operation) });
    }
  } catch (error) {
    if (isFatal(error) && !(await onlyThisItem(context, error))) throw error;
    const { issue, replan } = issueFor(operation, error);
    context.ledger.issues.push(issue);
    context.setup.log({
      level: issue.kind === 'failed' ? 'error' : 'warn',
      message: `${issue.code}: ${issue.message}`,
      path: issue.path,
    });
    // The words above leave out the device's ids and the system's own text: kept here for a report.
    context.setup.log({ level: 'debug', message: detailOf(error), path: issue.path });
    if (replan) execution.replan = true;
  } finally {
    progress.itemEnded(pathOf(operation), action === null ? 'not-counted' : 'counted');
  }
}

/** Runs the renames deferred until their name was free; each turn must free a name or stop. */
async function runDeferred(execution: Execution): Promise<void> {
  const ledger = execution.context.ledger;
  // A turn that defers as many renames as it ran is going round in circles.
  for (let before = Infinity; ledger.deferred.length > 0 && ledger.deferred.length < before;) {
    const deferred = ledger.deferred.splice(0);
    before = deferred.length;
    for (const operation of deferred) await attemptOperation(execution, operation);
  }
  for (const operation of ledger.deferred.splice(0)) {
    // Still under its temporary name: the next round moves it to its place (`parkedAs`).
    ledger.issues.push({
      kind: 'retry',
      path: pathOf(operation),
      code: 'NAME_TAKEN',
      message: 'Its new name on the device is still taken; tried again next round.',
    });
    execution.replan = true;
  }
}

/**
 * Runs `work` over `items` with at most `limit` at once; the first thrown error stops new starts. An
 * item that calls its `release` no longer counts against the limit (a transfer waiting for its batch of
 * index writes), and whenever none runs that has not, `idle` is called (the batch goes): so a batch
 * waits only while transfers are still moving bytes.
 */
async function pool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, release: () => void) => Promise<void>,
  idle: () => void,
): Promise<void> {
  let next = 0;
  let running = 0;
  let failure: { error: unknown } | undefined;
  const started: Array<Promise<void>> = [];
  let wake: () => void = () => {};
  const start = (): void => {
    while (failure === undefined && running < Math.max(1, limit) && next < items.length) {
      const item = items[next] as T;
      next += 1;
      running += 1;
      let counted = true;
      const release = (): void => {
        if (!counted) return;
        counted = false;
        running -= 1;
        try {
          start();
          if (running === 0) idle();
        } catch (error) {
          failure ??= { error };
        } finally {
          wake();
        }
      };
      started.push(
        work(item, release).then(release, (error: unknown) => {
          failure ??= { error };
          release();
        }),
      );
    }
  };
  try {
    start();
    // Until nothing can start any more: each release or end wakes this loop to look again.
    while (running > 0) await new Promise<void>((resolve) => (wake = resolve));
  } finally {
    try {
      idle();
    } catch (error) {
      failure ??= { error };
    }
    await Promise.allSettled(started);
  }
  if (failure !== undefined) throw failure.error;
}
