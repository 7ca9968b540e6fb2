// What the operations of one executed plan share: the round's fixed setup apart from the ledger its operations change.
import type { DeviceClient } from '../../api/device-client.ts';
import { nameKey, type RelativePath, type RemoteEntry } from '../../model/items.ts';
import type { Operation, RemoteParent } from '../plan/operations.ts';
import type { IndexWriter } from '../../index/index-writes.ts';
import type { PassCounts, PassIssue, PassReport } from '../pass-report.ts';
import type { ActivityEntry, SyncProgress } from '../../../common/sync-status.ts';
import type { EngineLogLine, OnDemandPolicy, SyncEngineOptions } from '../engine-options.ts';
import type { LocalWrite } from '../engine-events.ts';
import type { OwnMove } from '../remote/walk-listing.ts';
import { ReplanNeeded } from './replan-needed.ts';
import type { VersionStore } from '../versions/version-store.ts';
import { CreatedRows, DownloadPlacements } from './index-batches.ts';
import { ordinaryFileMode } from '../local/file-modes.ts';

/** What stays the same while one round's plan runs: the clients, both roots, the round's walk, the hooks. */
export interface RoundSetup {
  readonly client: DeviceClient;
  readonly index: IndexWriter;
  readonly localRoot: string;
  readonly remoteRootId: string;
  /** The remote walk of this round, by id. */
  readonly remote: ReadonlyMap<string, RemoteEntry>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => Date;
  readonly log: (line: EngineLogLine) => void;
  /** Told before the engine itself changes a local path, so a watcher can ignore the echo. */
  readonly onLocalWrite: (write: LocalWrite) => void;
  readonly onActivity: (entry: ActivityEntry) => void;
  readonly onProgress: (progress: SyncProgress) => void;
  readonly signal: AbortSignal | undefined;
  /** An on-demand pair's policy: what comes down as a placeholder. */
  readonly onDemand: OnDemandPolicy | undefined;
  /** Where replaced and removed content is kept first; undefined: versions are off. */
  readonly versions: VersionStore | undefined;
  /**
   * The mode of downloaded files: what the user's own new files get (file-modes.ts), read once a round
   * rather than once a file (a read of /proc each); undefined on Windows.
   */
  readonly fileMode: number | undefined;
}

/**
 * What the round's operations change as they run: what they learned of the device, what the plan still
 * has to do, and what they counted and reported. Later operations of the plan read what earlier ones wrote.
 */
export interface RoundLedger {
  /** Ids of folders created by this plan, by their path (NFC). */
  readonly createdFolders: Map<string, string>;
  /** The newest eTag of items this pass changed itself (a PATCH before a download changes it). */
  readonly eTags: Map<string, string>;
  /** The folder on the device of items this pass moved or renamed there. */
  readonly movedTo: Map<string, string>;
  /** Remote ids this plan still has to move (a name they hold is about to be free). */
  readonly pendingRemoteMoves: Set<string>;
  /** Remote ids this plan still has to delete (a name they hold may go to another item first). */
  readonly pendingRemoteDeletes: Set<string>;
  /** Items parked under a temporary name to free their name for a create, with the name they had. */
  readonly parkedNames: Map<string, string>;
  /** Operations to run once the others of their phase are done (the final step of a parked rename). */
  readonly deferred: Operation[];
  readonly counts: PassCounts;
  /**
   * Items this round deleted on each side (local: moved to the trash), a folder with what it held: the
   * next round's mass-delete guard counts them with its own (delete-run.ts).
   */
  readonly deletedItems: { local: number; remote: number };
  readonly issues: PassIssue[];
  readonly operations: Record<string, number>;
  /** Remote folders whose listing this pass changed (the next walk must ask for them again). */
  readonly touchedFolders: Set<string>;
  /** Moves the device confirmed, for the walk cache to learn instead of listing both folders again. */
  readonly ownMoves: OwnMove[];
  /** Downloads in their temporaries, put in place a batch at a time (index-batches.ts). */
  readonly placements: DownloadPlacements;
  /** Rows of uploads, written a batch at a time (index-batches.ts). */
  readonly createdRows: CreatedRows;
  /** The transfer of `path` moved all its bytes; its item is not done yet (set by executePlan). */
  transferEnded: (path: RelativePath) => void;
  /** A transfer of `path` starts; the returned function takes its bytes done (set by executePlan). */
  transferStarted: (
    path: RelativePath,
    direction: 'up' | 'down',
    bytes: number,
  ) => (bytesDone: number) => void;
}

export interface ExecutionContext {
  readonly setup: RoundSetup;
  readonly ledger: RoundLedger;
}

/** The items a pass counted as uploaded or downloaded (by remote id), kept across the pass's rounds. */
const countedItems = new WeakMap<PassCounts, Set<string>>();

/**
 * Counts an item once per pass as uploaded or downloaded: a file edited again while the pass ran is
 * sent again by a later round, and is still one item (a pass reported `uploaded: 3` for 2 files).
 */
export function countTransfer(
  ledger: Pick<RoundLedger, 'counts'>,
  what: 'uploaded' | 'downloaded',
  remoteId: string,
): void {
  let counted = countedItems.get(ledger.counts);
  if (counted === undefined) {
    counted = new Set();
    countedItems.set(ledger.counts, counted);
  }
  const key = `${what}\n${remoteId}`;
  if (counted.has(key)) return;
  counted.add(key);
  ledger.counts[what] += 1;
}

/** The eTag to send in If-Match: the one this pass last got for the item, else the planned one. */
export function currentETag(context: ExecutionContext, remoteId: string, planned: string): string {
  return context.ledger.eTags.get(remoteId) ?? planned;
}

/** The id of a create's or move's target folder; a folder this plan failed to create means "wait". */
export function parentId(context: ExecutionContext, parent: RemoteParent, forPath: RelativePath): string {
  if (parent.kind === 'existing') return parent.remoteId;
  const id = context.ledger.createdFolders.get(nameKey(parent.path));
  if (id === undefined) {
    throw new ReplanNeeded('PARENT_MISSING', forPath, `Its folder ${parent.path} was not created yet.`);
  }
  return id;
}

/** A fresh context for one round's plan: the engine's parts, and the round's remote side and report. */
export function newExecutionContext(
  engine: Pick<SyncEngineOptions, 'client' | 'localRoot' | 'env' | 'now' | 'log' | 'events' | 'onDemand'> & {
    writer: IndexWriter;
    versionStore: VersionStore | undefined;
  },
  round: {
    remote: RoundSetup['remote'];
    remoteRootId: string;
    report: Pick<PassReport, 'issues' | 'counts' | 'operations'>;
    /** The engine's set of folders to list again, which this round adds to. */
    touchedFolders: Set<string>;
    signal: AbortSignal | undefined;
  },
): ExecutionContext {
  const events = engine.events;
  const setup: RoundSetup = {
    client: engine.client,
    index: engine.writer,
    localRoot: engine.localRoot,
    remoteRootId: round.remoteRootId,
    remote: round.remote,
    env: engine.env ?? process.env,
    now: engine.now ?? (() => new Date()),
    log: engine.log ?? (() => {}),
    onLocalWrite: events?.onLocalWrite ?? (() => {}),
    onActivity: events?.onActivity ?? (() => {}),
    onProgress: events?.onProgress ?? (() => {}),
    signal: round.signal,
    onDemand: engine.onDemand,
    versions: engine.versionStore,
    fileMode: ordinaryFileMode(),
  };
  const ledger: RoundLedger = {
    createdFolders: new Map(),
    eTags: new Map(),
    movedTo: new Map(),
    pendingRemoteMoves: new Set(),
    pendingRemoteDeletes: new Set(),
    parkedNames: new Map(),
    deferred: [],
    counts: round.report.counts,
    deletedItems: { local: 0, remote: 0 },
    issues: round.report.issues,
    operations: round.report.operations,
    touchedFolders: round.touchedFolders,
    ownMoves: [],
    placements: new DownloadPlacements(engine.writer, engine.localRoot, setup.onLocalWrite),
    createdRows: new CreatedRows(engine.writer.store),
    transferEnded: () => {},
    transferStarted: () => () => {},
  };
  return { setup, ledger };
}
