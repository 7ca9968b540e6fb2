// The live sync service: passes after local changes, on a poll and on request, with pause, backoff and status.
import { statSync } from 'node:fs';
import type { ActivityEntry, EngineState, SyncProgress, SyncStatus } from '../../common/sync-status.ts';
import { systemClock, type Clock, type TimerHandle } from '../system/clock.ts';
import { startLocalWatcher, type LocalWatcher } from '../watcher/local-watcher.ts';
import { startSafetyRescans, type SafetyRescans } from '../watcher/safety-rescans.ts';
import type { EngineLogLine, SyncEngine } from '../sync/engine.ts';
import { holdAdvice } from '../sync/hold-words.ts';
import type { HoldReason, PassHold, PassIssue, PassReport } from '../sync/pass-report.ts';
import { failureState } from './failure-state.ts';
import { answeredHold } from './hold-answers.ts';
import {
  passOptions,
  withRequest,
  type HeldChoice,
  type PassMode,
  type QueuedPass,
} from './pass-requests.ts';
import { WatchedDeletions } from './watched-deletions.ts';
import { pauseDetail, PauseState } from './pause-state.ts';
import type { LiveSyncOptions } from './live-sync-options.ts';

export type { LiveSyncOptions } from './live-sync-options.ts';

const MAX_ACTIVITY = 200;

export class LiveSync {
  readonly #options: LiveSyncOptions;
  readonly #clock: Clock;
  readonly #engine: SyncEngine;
  #watcher: LocalWatcher | undefined;
  #safety: SafetyRescans | undefined;
  #state: EngineState = 'idle';
  #detail: string | null = null;
  #progress: SyncProgress | null = null;
  #lastSyncAtMs: number | null = null;
  #activity: ActivityEntry[] = [];
  #issues: PassIssue[] = [];
  #hold: PassHold | null = null;
  #watchProblem: string | null = null;
  /** The next pass asked for, with every request made since the last one started merged in. */
  #queued: QueuedPass | null = null;
  #running: Promise<void> | null = null;
  #abort: AbortController | null = null;
  readonly #pauses: PauseState;
  #stopped = false;
  #timer: TimerHandle | undefined;
  #failures = 0;
  #localActivity = false;
  /** The words of the hold last logged: a poll that meets the same hold says nothing new. */
  #loggedHold: string | null = null;
  /** The watcher lost the synced folder (root-changed): watched again once a folder is there. */
  #rewatch = false;
  #idleWaiters: Array<() => void> = [];
  readonly #deletions: WatchedDeletions;

  constructor(options: LiveSyncOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#deletions = new WatchedDeletions(() => this.#watcher, this.#clock);
    this.#pauses = new PauseState(this.#clock, {
      paused: (pause, first) => {
        if (first) this.#halt();
        this.#setState('paused', pauseDetail(pause, this.#clock.wallNow(), this.#pairFolder));
      },
      resumed: () => {
        this.#failures = 0;
        this.#setState('idle', null);
        this.#request('revalidate');
      },
    });
    this.#engine = options.engine({
      onLocalWrite: (write) => {
        this.#watcher?.expectEcho(write.path, write.kind, {
          ...(write.fromPath === undefined ? {} : { fromPath: write.fromPath }),
          ...(write.item === undefined ? {} : { item: write.item }),
        });
      },
      onActivity: (entry) => this.noteActivity(entry),
      onProgress: (progress) => {
        this.#progress = progress;
        this.#options.observer?.progress(progress);
        this.#setState(progress.itemsTotal > 0 ? 'syncing' : this.#state);
        this.#options.onChange?.();
      },
    });
  }

  /** Starts watching and runs the first (full) pass; resolves once the watcher is ready. */
  get #pairFolder(): string {
    return this.#options.pairFolder ?? this.#options.localRoot;
  }

  async start(): Promise<void> {
    this.#watcher = this.#startWatcher();
    this.#safety = startSafetyRescans({
      onRescan: (reason) => {
        this.#log('info', `full rescan (${reason})`);
        this.#request('revalidate');
      },
      ...(this.#options.clock === undefined ? {} : { clock: this.#options.clock }),
    });
    await this.#watcher.ready;
    this.#request('revalidate');
  }

  #startWatcher(): LocalWatcher {
    const watch = this.#options.watch ?? startLocalWatcher;
    return watch({
      root: this.#options.localRoot,
      ...(this.#options.debounceMs === undefined ? {} : { debounceMs: this.#options.debounceMs }),
      ...(this.#options.clock === undefined ? {} : { clock: this.#options.clock }),
      ...(this.#options.knownItem === undefined ? {} : { knownItem: this.#options.knownItem }),
      onBatch: (batch) => {
        this.#localActivity = true;
        this.#deletions.noteBatch(batch);
        this.#options.observer?.localChanges(
          batch.changes.filter((change) => change.kind !== 'deleted').map((change) => change.path),
        );
        this.#request('trust-cache', null, batch.affectedPaths);
      },
      onRescanNeeded: (reason, message) => {
        // The watches followed the old folder (deleted, moved away, unmounted): a folder that comes
        // back at the path is watched anew before the next pass, and until then every pass reads it all.
        if (reason === 'root-changed') this.#rewatch = true;
        this.#watchProblem = message;
        this.#log('warn', `full rescan (${reason}): ${message}`);
        this.#request('revalidate');
      },
    });
  }

  /** After the root changed: a folder at the path again is watched from now on (before the pass reads it). */
  async #watchAgainIfBack(): Promise<void> {
    if (!this.#rewatch || !isFolder(this.#options.localRoot)) return;
    this.#watchProblem = null;
    const old = this.#watcher;
    this.#watcher = this.#startWatcher();
    await old?.close();
    await this.#watcher.ready;
    // Only once the new watches stand: if they fail, the next pass tries again and reads whole meanwhile.
    this.#rewatch = false;
  }

  /** Stops passes, the watcher and the timers; a running pass is cancelled. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#halt();
    this.#pauses.stop();
    this.#safety?.stop();
    await this.#running?.catch(() => undefined);
    await this.#watcher?.close();
  }

  /** No pass starts and the one under way is cancelled (stopped or paused). */
  #halt(): void {
    this.#clearTimer();
    this.#abort?.abort();
    this.#deletions.stopWaiting();
  }

  /** Paused by the user until `untilMs` (wall clock: it ends by itself), or until resumed (null). */
  pause(untilMs: number | null = null): void {
    this.#pauses.pauseByUser(untilMs);
  }

  /** The network is metered and the pair does not sync on one (the host decides), or no longer. */
  setMetered(metered: boolean): void {
    this.#pauses.setMetered(metered);
  }

  /** Ends the user's pause (not a metered network's); when not paused, a full pass now ("go"). */
  resume(): void {
    if (this.#pauses.paused) this.#pauses.endUserPause();
    else this.syncNow();
  }

  /** A full pass now (the tray's "sync now", `mch-sync resume` after an error). */
  syncNow(): void {
    this.#failures = 0;
    this.#request('revalidate');
  }

  /**
   * The user confirmed the deletes the guard held (or an emptied folder's, or a changed folder as it is):
   * one pass goes ahead with them. `seen`: the hold the user read (the window's card); without it, the
   * hold standing now (`mch-sync resume`, whose user read it in the log or `status`). HoldAnswerError
   * when there is no hold, or another: an answer never reaches a hold its user did not read.
   */
  confirmDeletes(seen?: HoldReason): void {
    this.#answer('confirm-deletes', seen);
  }

  /** The user wants what a hold would delete kept: one pass brings it back (or merges a changed folder). */
  restore(seen?: HoldReason): void {
    this.#answer('restore', seen);
  }

  #answer(choice: 'confirm-deletes' | 'restore', seen: HoldReason | undefined): void {
    const answers = answeredHold(this.#hold, seen, this.#pairFolder);
    // Bound to that hold: if the next pass finds another (a folder replaced meanwhile), it holds again.
    this.#request('revalidate', { choice, answers });
  }

  /** A line of activity from beside the passes (a file downloaded because a program opened it). */
  noteActivity(entry: ActivityEntry): void {
    this.#activity.unshift(entry);
    if (this.#activity.length > MAX_ACTIVITY) this.#activity.length = MAX_ACTIVITY;
    this.#options.onChange?.();
  }

  status(): SyncStatus {
    const mount = this.#options.mountStatus?.();
    const onMetered = this.#options.onMetered?.();
    return {
      state: this.#state,
      detail: this.#detail ?? (this.#state === 'idle' ? this.#watchProblem : null),
      localRoot: this.#pairFolder,
      remoteFolder: this.#options.remoteFolder,
      progress: this.#progress,
      lastSyncAtMs: this.#lastSyncAtMs,
      activity: [...this.#activity],
      issues: [...this.#issues],
      pid: process.pid,
      ...(mount === undefined ? {} : { mount }),
      ...(this.#pauses.pause && { pause: this.#pauses.pause }),
      ...(onMetered && { onMetered }),
      ...(this.#options.connection && { connection: this.#options.connection() }),
      ...this.#engine.deviceStatus(),
    };
  }

  /** What the last pass was held for (the deletes it would make), or null when it was not held. */
  hold(): PassHold | null {
    return this.#hold;
  }

  /** Resolves when no pass runs and none is queued (tests and benchmarks wait for this). */
  whenIdle(): Promise<void> {
    if (this.#running === null && this.#queued === null) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #request(mode: PassMode, choice: HeldChoice = null, paths?: readonly string[]): void {
    if (this.#stopped) return;
    this.#queued = withRequest(this.#queued, mode, choice, paths);
    if (this.#running === null && !this.#pauses.paused) this.#running = this.#loop();
  }

  async #loop(): Promise<void> {
    try {
      while (this.#queued !== null && !this.#pauses.paused && !this.#stopped) {
        // Deletions the watcher still holds go out first and join this pass: a poll that ran ahead of
        // them would plan part of an `rm -rf` (what its scope reaches) under the guard and make those
        // deletes before the whole is seen (soak seeds 3, 6, 9).
        await this.#deletions.waitOut();
        if (this.#queued === null || this.#pauses.paused || this.#stopped) break;
        const { mode, choice, scope } = this.#queued;
        this.#queued = null;
        this.#clearTimer();
        await this.#pass(mode, choice, scope === null ? undefined : [...scope]);
      }
    } finally {
      this.#running = null;
      if (this.#queued === null || this.#pauses.paused || this.#stopped) {
        for (const resolve of this.#idleWaiters.splice(0)) resolve();
      }
    }
  }

  async #pass(mode: PassMode, choice: HeldChoice, scope: string[] | undefined): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    const hadLocalActivity = this.#localActivity;
    this.#localActivity = false;
    this.#progress = null;
    // While held, a poll that brings no answer leaves the hold in view (it mostly meets it again); an
    // answer, or any pass of a pair not held, shows that it is looking.
    if (this.#state !== 'held' || choice !== null) this.#setState('scanning', null);
    try {
      await this.#watchAgainIfBack();
      // Unwatched, only a pass that reads the whole folder sees what changed in it.
      if (this.#rewatch) mode = 'revalidate';
      this.#options.observer?.passStarted();
      const report = await this.#engine.syncOnce(
        passOptions(mode, choice, scope, abort.signal, this.#deletions.forEngine),
      );
      this.#failures = 0;
      if (mode === 'revalidate') this.#safety?.noteFullRescan();
      this.#options.observer?.passEnded(report);
      this.#afterReport(report);
      this.#schedulePoll(
        hadLocalActivity ? (this.#options.activePollMs ?? 5_000) : (this.#options.pollMs ?? 30_000),
      );
    } catch (error) {
      this.#options.observer?.passEnded(null);
      if (this.#pauses.paused || this.#stopped) return;
      this.#afterFailure(error);
    } finally {
      this.#abort = null;
      this.#progress = null;
    }
  }

  #afterReport(report: PassReport): void {
    this.#issues = report.issues;
    const hold = report.hold;
    // The folder at the path was another one (a disk swapped, a folder made again) and is the pair's
    // now (answered, or the right one back): the watches may follow the other one's inodes (a mount
    // over the path says nothing to them). Watched anew, then read whole for what they missed.
    if (this.#hold?.reason === 'folder-changed' && hold?.reason !== 'folder-changed') {
      this.#rewatch = true;
      this.#request('revalidate');
    }
    this.#hold = hold;
    if (hold) {
      // Said in words that work here (`mch-sync resume ...`), and logged once per change, not per poll.
      const words = holdAdvice(hold, this.#pairFolder, 'service');
      if (words !== this.#loggedHold) this.#log('warn', `waiting for you: ${words}`);
      this.#loggedHold = words;
      this.#setState('held', words);
      return;
    }
    this.#loggedHold = null;
    if (report.status === 'synced') this.#lastSyncAtMs = report.finishedAtMs;
    const failed = report.issues.filter((issue) => issue.kind === 'failed' || issue.kind === 'retry').length;
    this.#setState(
      'idle',
      failed > 0
        ? `${failed} ${failed === 1 ? 'item is' : 'items are'} not synced: the issues say why.`
        : null,
    );
  }

  #afterFailure(error: unknown): void {
    this.#failures += 1;
    const failed = failureState(error, this.#failures, this.#options.maxBackoffMs ?? 300_000);
    this.#setState(failed.state, failed.detail);
    this.#log('error', `${failed.code}: ${failed.message}`);
    // The failed pass may have left its watched changes half done: the retry looks at everything.
    this.#schedulePoll(failed.backoffMs, 'revalidate');
  }

  #schedulePoll(delayMs: number, mode: PassMode = 'poll'): void {
    this.#clearTimer();
    if (this.#stopped || this.#pauses.paused) return;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      // Folders the watch limit left unwatched are read by every poll: nothing else says they changed.
      this.#request(mode, null, mode === 'revalidate' ? undefined : (this.#watcher?.unwatchedPaths() ?? []));
    }, delayMs);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #setState(state: EngineState, detail: string | null = this.#detail): void {
    const changed = state !== this.#state || detail !== this.#detail;
    this.#state = state;
    this.#detail = detail;
    if (changed) this.#options.onChange?.();
  }

  #log(level: EngineLogLine['level'], message: string): void {
    this.#options.log?.({ level, message });
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
