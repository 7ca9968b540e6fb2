// The desktop core's folder pairs: one live service each (lock, index, log, control socket), started with the app, added and removed from the window.
import { dirname, resolve } from 'node:path';
import type { ActivityView, IssueView, PairCheckView, PairView } from '../../../common/contract.ts';
import { MchError } from '../../../common/errors.ts';
import type { ActivityEntry, SyncStatus } from '../../../common/sync-status.ts';
import { lockSyncedFolder, type SyncedFolderLock } from '../../profile/folder-lock.ts';
import { folderKey } from '../../index/index-db.ts';
import { forgetFolderPair, type FolderPair } from '../../profile/folder-pairs.ts';
import { readPairOnDemand } from '../../profile/pair-on-demand.ts';
import { releaseCache } from '../../on-demand/whole-pair.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import {
  notSyncedError,
  offeredDeviceFolder,
  pairOverlaps,
  recordNewPair,
} from '../../profile/pair-check.ts';
import { moveToTrash } from '../../sync/trash/local-trash.ts';
import type { HoldReason } from '../../sync/pass-report.ts';
import { checkNewPair, isRetried, PairError, stoppedPairView } from './pair-checks.ts';
import { PairAnswers, type HoldChoice } from './pair-answers.ts';
import type { PairConflicts } from '../versions/conflict-paths.ts';
import type { PairHistory } from './pair-history.ts';
import { activityViewOf, issueViews, pairSelectionView, pairView, TransferRate } from './pair-views.ts';
import { pairOnDemandView } from './on-demand-views.ts';
import { startPair, type PairStartOptions, type StartedPair, type StoppedWork } from './pair-start.ts';
import { StoredPassReader } from './stored-pass.ts';

interface RunningPair extends StartedPair {
  id: string;
  pair: FolderPair;
  rate: TransferRate;
  /** The index's record of the last pass: issues and last sync until this service finished one. */
  stored: StoredPassReader;
  startedAtMs: number;
}

/**
 * A pair that could not start (another process syncs the folder, it is missing, it overlaps another
 * pair, its index cannot be opened): shown with why.
 */
interface StoppedPair {
  id: string;
  pair: FolderPair;
  error: MchError | Error;
}

export interface PairManagerOptions extends PairStartOptions {
  /** What the window was told of each pair, kept by the core across managers. */
  history: PairHistory;
  /** The conflicted copies a pair's view counts, read from its index (app/ui/versions/conflict-paths.ts). */
  conflicts: Pick<PairConflicts, 'of'>;
  /** A pair's status changed (state, progress, activity, issues). */
  onChange: (pairId: string) => void;
  /** New activity of a pair, as the engine reports it. */
  onActivity?: (pairId: string, added: ActivityView[]) => void;
}

export class PairManager {
  readonly #options: PairManagerOptions;
  readonly #running = new Map<string, RunningPair>();
  readonly #stopped = new Map<string, StoppedPair>();
  /** Pairs whose service is being started. */
  readonly #starting = new Set<string>();
  /** Pairs whose service is stopped for a change of their folder (whileStopped), as they are listed meanwhile. */
  readonly #switching = new Map<string, PairView>();
  /** Per pair, the activity entries already told (the status keeps the last few hundred). */
  readonly #toldActivity = new Map<string, Set<ActivityEntry>>();
  readonly #answers: PairAnswers;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: PairManagerOptions) {
    this.#options = options;
    this.#answers = new PairAnswers((pairId) => this.#options.onChange(pairId));
  }

  /**
   * Starts every pair the profile holds; one that cannot start is listed with its error. Pairs that
   * overlap (recorded by older versions) are not started at all: they wait for the user to remove one.
   */
  async startAll(): Promise<void> {
    const pairs = await knownFolderPairs(this.#options.profileDir, this.#options.warn);
    const overlaps = pairOverlaps(this.#options.profileDir, pairs);
    for (const pair of pairs) {
      const overlap = overlaps.get(pair.localRoot);
      if (overlap === undefined) {
        await this.#start(pair);
      } else {
        const id = folderKey(pair.localRoot);
        this.#stopped.set(id, { id, pair, error: notSyncedError(pair.localRoot, overlap) });
        this.#options.onChange(id);
      }
    }
  }

  /**
   * What "Add a folder" says before adding: the device folder to offer (`remoteFolder` when given, else
   * `/<name of the folder>` or a free name beside the other pairs') and why `add` would refuse the pair.
   */
  async check(localRootGiven: string, remoteFolderGiven: string | null): Promise<PairCheckView> {
    const localRoot = resolve(localRootGiven);
    const pairs = await knownFolderPairs(this.#options.profileDir, this.#options.warn);
    const remoteFolder = remoteFolderGiven ?? offeredDeviceFolder(localRoot, pairs);
    try {
      this.#checkNew(localRoot, remoteFolder, pairs);
      return { remoteFolder, problem: null };
    } catch (error) {
      if (!(error instanceof MchError)) throw error;
      return { remoteFolder, problem: { code: error.code, title: error.title, message: error.message } };
    }
  }

  /** Why the pair may not be added (pair-checks.ts); its device folder. */
  #checkNew(localRoot: string, remoteFolder: string, pairs: readonly FolderPair[]): string {
    const isKnown = (id: string): boolean => this.#running.has(id) || this.#stopped.has(id);
    return checkNewPair(this.#options.profileDir, { localRoot, remoteFolder }, pairs, isKnown);
  }

  /**
   * `prepare`: what is done before its first pass (selective sync's folders left out, files on demand),
   * under the folder's lock; if it fails the pair is forgotten again.
   */
  async add(
    localRootGiven: string,
    remoteFolderGiven: string,
    prepare?: (pair: FolderPair) => Promise<void>,
  ): Promise<PairView> {
    const localRoot = resolve(localRootGiven);
    const pairs = await knownFolderPairs(this.#options.profileDir, this.#options.warn);
    const remoteFolder = this.#checkNew(localRoot, remoteFolderGiven, pairs);
    const pair = await recordNewPair(
      this.#options.profileDir,
      { localRoot, remoteFolder },
      pairs,
      this.#options.warn,
    );
    try {
      await this.#locked(pair, prepare);
    } catch (error) {
      forgetFolderPair(this.#options.profileDir, localRoot);
      throw error;
    }
    await this.#start(pair);
    return this.view(folderKey(localRoot));
  }

  /**
   * Runs `work` with the pair's live service stopped and its folder locked (its files may move; a pass
   * may run with what the service is started with), then starts it again whatever `work` did; listed
   * as `during` meanwhile.
   */
  async whileStopped(id: string, during: PairView, work: StoppedWork): Promise<void> {
    const pair = this.#pairOf(id);
    this.#switching.set(id, during);
    try {
      await this.#stop(id);
      this.#stopped.delete(id);
      await this.#locked(pair, (locked, lock) => work(locked, { start: this.#options, lock }));
    } finally {
      this.#switching.delete(id);
      await this.#start(pair);
    }
  }

  async #locked(
    pair: FolderPair,
    work: ((pair: FolderPair, lock: SyncedFolderLock) => Promise<void>) | undefined,
  ): Promise<void> {
    if (work === undefined) return;
    const lock = lockSyncedFolder(this.#options.profileDir, pair.localRoot);
    try {
      await work(pair, lock);
    } finally {
      lock.release();
    }
  }

  /** Tries again to start a pair that could not start because its folder was busy or missing. */
  async retry(pairId: string | null): Promise<void> {
    for (const stopped of [...this.#stopped.values()]) {
      // Removed meanwhile, or stopping: not started again.
      if (this.#closed || this.#stopped.get(stopped.id) !== stopped) continue;
      if ((pairId === null || stopped.id === pairId) && isRetried(stopped.error))
        await this.#start(stopped.pair);
    }
  }

  /** Stops the pair and forgets it; without `keepLocalFiles`, its folder goes to the trash. */
  async remove(id: string, keepLocalFiles: boolean): Promise<void> {
    const pair = this.#pairOf(id);
    await this.#stop(id);
    this.#stopped.delete(id);
    this.#options.history.forget(id);
    this.#answers.forget(id);
    // An on-demand pair's whole files come back from its cache folder into the folder (whole-pair.ts).
    const onDemand = readPairOnDemand(this.#options.profileDir, pair.localRoot);
    if (onDemand !== undefined) await releaseCache(onDemand.cache, pair.localRoot);
    forgetFolderPair(this.#options.profileDir, pair.localRoot);
    // The folder's own trash would be inside it: the fallback is beside it.
    if (!keepLocalFiles)
      await moveToTrash(pair.localRoot, { syncRoot: dirname(pair.localRoot), env: this.#options.env });
  }

  ids(): string[] {
    return [...new Set([...this.#running.keys(), ...this.#stopped.keys(), ...this.#switching.keys()])].sort();
  }

  views(): PairView[] {
    return this.ids()
      .map((id) => this.view(id))
      .sort((a, b) => (a.localRoot < b.localRoot ? -1 : a.localRoot > b.localRoot ? 1 : 0));
  }

  view(id: string): PairView {
    const switching = this.#switching.get(id);
    if (switching !== undefined) return switching;
    const running = this.#running.get(id);
    const { profileDir } = this.#options;
    if (running !== undefined) {
      const status = this.#status(running);
      if (status.progress !== null) running.rate.sample(performance.now(), status.progress.bytesDone);
      else running.rate.reset();
      return pairView({
        id,
        status,
        hold: running.service.live.hold(),
        itemsSynced: running.store.count(),
        rate: running.rate,
        conflicts: this.#options.conflicts.of(id, running.store, status.lastSyncAtMs),
        answering: this.#answers.of(id),
        selection: pairSelectionView(profileDir, running.pair.localRoot),
        onDemand: pairOnDemandView(profileDir, running.pair.localRoot, status.mount, Date.now()),
      });
    }
    const stopped = this.#stopped.get(id);
    if (stopped === undefined) throw new PairError('PAIR_NOT_FOUND', `There is no folder pair ${id}.`);
    const { localRoot } = stopped.pair;
    return stoppedPairView(id, stopped.pair, stopped.error, this.#retryMs(), {
      selection: pairSelectionView(profileDir, localRoot),
      onDemand: pairOnDemandView(profileDir, localRoot, null, Date.now()),
    });
  }

  /** The pair and, while its service runs, its open index (selective sync's sizes) and service (versions). */
  selectionTarget(id: string): { pair: FolderPair } & Partial<Pick<RunningPair, 'store' | 'service'>> {
    const running = this.#running.get(id);
    return { pair: this.#pairOf(id), ...(running && { store: running.store, service: running.service }) };
  }

  /** The live status, with what the index remembers until this service has finished a pass of its own. */
  #status(running: RunningPair): SyncStatus {
    const status = running.service.live.status();
    const stored = running.stored.read();
    const lastSyncAtMs = status.lastSyncAtMs ?? stored.lastSyncAtMs;
    if (stored.finishedAtMs >= running.startedAtMs) return { ...status, lastSyncAtMs };
    return { ...status, lastSyncAtMs, issues: stored.issues };
  }

  issues(pairId: string | null): IssueView[] {
    return this.#each(pairId).flatMap((running) => {
      const status = this.#status(running);
      const copies = this.#options.conflicts.of(running.id, running.store, status.lastSyncAtMs);
      return issueViews(running.id, status, copies).issues;
    });
  }

  /**
   * Answers the pair's hold, the one its card showed (`seen`): HoldAnswerError when none stands or
   * another does, nothing changed. The view it returns says the answer is under way, so the window
   * shows that from the click, not the hold it answered.
   */
  answer(pairId: string, choice: HoldChoice, seen: HoldReason): PairView {
    const [running] = this.#each(pairId);
    if (running === undefined) return this.view(pairId);
    const hold = this.view(pairId).hold;
    const label = hold === null ? null : choice === 'restore' ? hold.restoreLabel : hold.confirmLabel;
    this.#answers.answer(pairId, running.service.live, { choice, seen, label });
    return this.view(pairId);
  }

  /** Runs `action` on the pair's live service, or on every running one for `null`. */
  control(pairId: string | null, action: (running: RunningPair['service']['live']) => void): void {
    for (const running of this.#each(pairId)) action(running.service.live);
  }

  pairs(): FolderPair[] {
    return [...this.#running.values(), ...this.#stopped.values()].map((entry) => entry.pair);
  }

  async stopAll(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    for (const id of [...this.#running.keys()]) await this.#stop(id);
  }

  #each(pairId: string | null): RunningPair[] {
    if (pairId === null) return [...this.#running.values()];
    const running = this.#running.get(pairId);
    if (running === undefined) {
      if (this.#stopped.has(pairId)) return [];
      throw new PairError('PAIR_NOT_FOUND', `There is no folder pair ${pairId}.`);
    }
    return [running];
  }

  #pairOf(id: string): FolderPair {
    const pair = this.#running.get(id)?.pair ?? this.#stopped.get(id)?.pair;
    if (pair === undefined) throw new PairError('PAIR_NOT_FOUND', `There is no folder pair ${id}.`);
    return pair;
  }

  async #start(pair: FolderPair): Promise<void> {
    const id = folderKey(pair.localRoot);
    // One start at a time per pair (a retry's timer and "Sync now" may both ask).
    if (this.#starting.has(id)) return;
    this.#starting.add(id);
    try {
      await this.#startOnce(pair, id);
    } finally {
      this.#starting.delete(id);
    }
  }

  async #startOnce(pair: FolderPair, id: string): Promise<void> {
    try {
      const started = await startPair(this.#options, pair, () => this.#changed(id));
      this.#running.set(id, {
        id,
        pair,
        ...started,
        rate: new TransferRate(),
        stored: new StoredPassReader(started.store),
        startedAtMs: Date.now(),
      });
      // Listed as stopped until it runs: a pair being started again never drops out of the list.
      this.#stopped.delete(id);
    } catch (error) {
      const stopped = error instanceof Error ? error : new Error(String(error));
      this.#stopped.set(id, { id, pair, error: stopped });
      if (isRetried(stopped)) this.#scheduleRetry();
    }
    this.#options.onChange(id);
  }

  /** One timer for every pair that waits for its folder (busy or missing); none once they all run. */
  #scheduleRetry(): void {
    if (this.#retryTimer !== undefined || this.#closed) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.retry(null).catch((error: unknown) =>
        this.#options.warn(`a folder could not be started again (${(error as Error).message})`),
      );
    }, this.#retryMs()).unref();
  }

  /** The poll interval: a disk plugged in is noticed as soon as live sync noticed it before. */
  #retryMs(): number {
    return this.#options.pollMs ?? 30_000;
  }

  /** The pair's engine state alone: cheaper than its view, which counts the index's rows. */
  stateOf(id: string): PairView['state'] {
    return this.#running.get(id)?.service.live.status().state ?? this.#switching.get(id)?.state ?? 'error';
  }

  #changed(id: string): void {
    const running = this.#running.get(id);
    if (running !== undefined) {
      // The status copies its list but keeps the entries: an entry not told before is new (two in one
      // millisecond included). Told as one batch per change, newest first like the list; a change
      // comes with every operation of a pass, so this stays a walk of one short list.
      const activity = running.service.live.status().activity;
      const told = this.#toldActivity.get(id);
      const fresh = told === undefined ? activity : activity.filter((entry) => !told.has(entry));
      if (fresh.length > 0) {
        this.#toldActivity.set(id, new Set(activity));
        const localRoot = running.pair.localRoot;
        const added = fresh.map((entry) => activityViewOf(id, localRoot, entry));
        this.#options.history.add(id, added);
        this.#options.onActivity?.(id, added);
      }
    }
    this.#options.onChange(id);
  }

  async #stop(id: string): Promise<void> {
    const running = this.#running.get(id);
    if (running === undefined) return;
    this.#running.delete(id);
    try {
      await running.service.stop();
    } finally {
      running.db.close();
      running.lock.release();
    }
  }
}
