// The live service of a live soak seed: LiveSync over the real watcher, each of its passes seen, and quiet read from them.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openIndexDb, type IndexDb } from '../../../app/index/index-db.ts';
import { IndexStore } from '../../../app/index/index-store.ts';
import { knownItemsFromIndex } from '../../../app/watcher/index-known-items.ts';
import { startLocalWatcher } from '../../../app/watcher/local-watcher.ts';
import { LiveSync } from '../../../app/live-service/live-sync.ts';
import {
  SyncEngine,
  type EngineLogLine,
  type SyncEngineOptions,
  type SyncOptions,
} from '../../../app/sync/engine.ts';
import type { PassHold, PassReport } from '../../../app/sync/pass-report.ts';
import { clientFor, type RecordedClient } from '../../helpers/api-client.ts';
import type { TestDevice } from '../../helpers/device.ts';
import type { Violation } from './invariants.ts';
import type { ExpectedIssue } from './report-checks.ts';
import type { SelectionStore } from '../../../app/model/selection.ts';
import type { VersionsPolicy } from '../../../app/sync/engine-options.ts';
import { isQuiet } from './soak-invariants.ts';
import { WireRelay, type UploadTap } from './wire.ts';

const FIXED_NOW = new Date('2026-11-23T12:34:56Z');
const DEBOUNCE_MS = 40;
export const POLL_MS = 150;
/**
 * The watcher holds an unlink this long for an add of the same inode (a move); 1 s by default, shorter
 * here so a seed does not wait a second per delete. Events of one move come within microseconds here.
 */
const MOVE_WINDOW_MS = 250;
/** A pass that starts this long after a change comes after the watcher's batch of it (or is its own). */
export const SETTLE_MS = MOVE_WINDOW_MS + DEBOUNCE_MS + 100;
/** Quiet is two passes, begun after the last change had time to be seen, finding nothing; this long at most. */
const QUIET_LIMIT_MS = 30_000;

export interface Seen {
  startedAtMs: number;
  report: PassReport | Error;
}

/** The engine as built, reporting each pass it runs to the harness (LiveSync's passes are its own). */
class WatchedEngine extends SyncEngine {
  readonly #seen: Seen[];

  constructor(options: SyncEngineOptions, seen: Seen[]) {
    super(options);
    this.#seen = seen;
  }

  override async syncOnce(options: SyncOptions = {}): Promise<PassReport> {
    const startedAtMs = Date.now();
    try {
      const report = await super.syncOnce(options);
      this.#seen.push({ startedAtMs, report });
      return report;
    } catch (error) {
      this.#seen.push({ startedAtMs, report: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
  }
}

export interface LiveServiceOptions {
  device: TestDevice;
  work: string;
  localRoot: string;
  remoteFolder: string;
  env: { HOME: string; XDG_DATA_HOME: string };
  caseInsensitive: boolean;
  resumable?: { thresholdBytes: number; chunkBytes: number };
  tap?: UploadTap;
  /** Issue 29: the pair's selection, and the issues it makes expected (quiet all the same). */
  selection?: SelectionStore;
  expected?: ExpectedIssue;
  /** Issue 31: versions off (a device delete to the trash, as before), or a conflict policy. */
  versions?: 'off' | VersionsPolicy;
}

/**
 * What the harness does about a hold the service shows: answer it (as the user would), or leave it
 * (`undefined`). The default answers only an emptied folder: the scenario's deletes are the user's own.
 */
export type HoldAnswerer = (hold: PassHold) => 'confirm' | 'restore' | undefined;

const ANSWER_EMPTIED: HoldAnswerer = (hold) => (hold.reason === 'emptied-root' ? 'confirm' : undefined);

export class LiveService {
  readonly log: EngineLogLine[] = [];
  readonly seen: Seen[] = [];
  /** The engine's requests go through a relay so that a remote change can have the device to itself. */
  readonly relay: WireRelay;
  readonly db: IndexDb;
  readonly index: IndexStore;
  live!: LiveSync;
  engineClient: RecordedClient | undefined;
  readonly #options: LiveServiceOptions;

  constructor(options: LiveServiceOptions) {
    this.#options = options;
    this.db = openIndexDb(join(options.work, 'index.db'));
    this.index = new IndexStore(this.db);
    this.relay = new WireRelay(options.device.base);
    if (options.tap !== undefined) this.relay.tapUploads(options.tap);
  }

  async start(): Promise<void> {
    const options = this.#options;
    const engineClient = clientFor(options.device, {
      deviceUrl: await this.relay.listen(),
      ...(options.resumable === undefined
        ? {}
        : {
            resumableThresholdBytes: options.resumable.thresholdBytes,
            chunkBytes: options.resumable.chunkBytes,
          }),
    });
    this.engineClient = engineClient;
    this.live = new LiveSync({
      knownItem: knownItemsFromIndex(this.index),
      engine: (events) =>
        new WatchedEngine(
          {
            client: engineClient.device,
            index: this.index,
            localRoot: options.localRoot,
            remoteFolder: options.remoteFolder,
            now: () => FIXED_NOW,
            log: (line) => this.log.push(line),
            env: options.env,
            caseInsensitive: options.caseInsensitive,
            events,
            ...(options.selection === undefined ? {} : { selection: options.selection }),
            ...(options.versions === undefined ? {} : { versions: options.versions }),
          },
          this.seen,
        ),
      localRoot: options.localRoot,
      remoteFolder: options.remoteFolder,
      pollMs: POLL_MS,
      activePollMs: POLL_MS,
      debounceMs: DEBOUNCE_MS,
      log: (line) => this.log.push(line),
      watch: (watcher) => startLocalWatcher({ ...watcher, moveWindowMs: MOVE_WINDOW_MS }),
    });
    await this.live.start();
  }

  async stop(): Promise<void> {
    await this.live.stop();
    await this.close();
  }

  /** Lets go of the relay and the index (after `stop`, or when the service never started). */
  async close(): Promise<void> {
    await this.relay.close();
    if (this.db.open) this.db.close();
  }

  /** Passes begun at or after `sinceMs`. */
  passesSince(sinceMs: number): Seen[] {
    return this.seen.filter((pass) => pass.startedAtMs >= sinceMs);
  }

  /** Waits until the service's own passes say quiet: two begun SETTLE_MS after `sinceMs` found nothing. */
  async quiet(sinceMs: number, phase: string, answer: HoldAnswerer = ANSWER_EMPTIED): Promise<Violation[]> {
    const deadline = Date.now() + QUIET_LIMIT_MS;
    while (Date.now() < deadline) {
      const hold = this.live.hold();
      const choice = hold === null ? undefined : answer(hold);
      if (choice === 'confirm') this.live.confirmDeletes(hold?.reason);
      if (choice === 'restore') this.live.restore(hold?.reason);
      await this.live.whenIdle();
      const after = this.passesSince(sinceMs + SETTLE_MS);
      const failed = after.find((pass) => pass.report instanceof Error);
      if (failed !== undefined && failed.report instanceof Error) {
        return [{ code: 'pass-failed', message: `${phase}: a live pass threw ${failed.report.message}` }];
      }
      const lastTwo = after.slice(-2);
      if (lastTwo.length === 2 && lastTwo.every((pass) => isQuiet(pass.report, this.#options.expected)))
        return [];
      await sleep(POLL_MS / 3);
    }
    const held = this.live.hold();
    return [
      {
        code: 'not-quiet',
        message: `${phase}: the live service still had work after ${QUIET_LIMIT_MS} ms${held === null ? '' : ` (held: ${held.reason})`}`,
      },
    ];
  }

  /** The hold the service shows once one of `reasons` comes, or undefined after `limitMs`. */
  async heldFor(reasons: readonly PassHold['reason'][], limitMs: number): Promise<PassHold | undefined> {
    const deadline = Date.now() + limitMs;
    while (Date.now() < deadline) {
      const hold = this.live.hold();
      if (hold !== null && reasons.includes(hold.reason)) return hold;
      await sleep(POLL_MS / 5);
    }
    return undefined;
  }

  /** Waits for `count` more passes than now (polls come every POLL_MS), or `limitMs`. */
  async morePasses(count: number, limitMs = 10_000): Promise<void> {
    const wanted = this.seen.length + count;
    const deadline = Date.now() + limitMs;
    while (this.seen.length < wanted && Date.now() < deadline) await sleep(POLL_MS / 3);
  }
}
