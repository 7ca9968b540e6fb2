// The deletions the watcher holds back for a moment: counted for the engine's question, and waited for before a pass.
import type { Clock, TimerHandle } from '../system/clock.ts';
import type { LocalChangeBatch, LocalWatcher } from '../watcher/local-watcher.ts';
import type { LocalDeletions } from '../sync/engine-options.ts';

/** The longest a pass waits for the deletions the watcher holds (its group time is 10 s). */
const DELETIONS_WAIT_MS = 30_000;

export class WatchedDeletions {
  /** The watcher now (a new one follows a folder that came back). */
  readonly #watcher: () => LocalWatcher | undefined;
  readonly #clock: Clock;
  /** Batches of the watcher that held deletions, counted: a pass asks whether one came while it ran. */
  #batches = 0;
  /** Ends the wait for the watcher's deletions (stop, pause). */
  #stopWaiting: (() => void) | undefined;

  /** What the engine asks before it deletes on the device (SyncOptions.deletions). */
  readonly forEngine: LocalDeletions = {
    mark: () => this.#batches,
    arrivedSince: async (mark) => {
      const waiting = this.#watcher()?.deletionsWaiting() ?? false;
      if (waiting) await this.waitOut();
      return waiting || this.#batches !== mark;
    },
  };

  constructor(watcher: () => LocalWatcher | undefined, clock: Clock) {
    this.#watcher = watcher;
    this.#clock = clock;
  }

  /** A batch of the watcher went out: one that holds deletions is counted. */
  noteBatch(batch: LocalChangeBatch): void {
    if (batch.changes.some((change) => change.kind === 'deleted')) this.#batches += 1;
  }

  /**
   * Waits for the watcher to let out the deletions it holds, at most `DELETIONS_WAIT_MS`: a storm that
   * goes on longer is judged in parts, and the guard adds up the deletes of passes a minute apart.
   */
  async waitOut(): Promise<void> {
    const watcher = this.#watcher();
    if (watcher === undefined) return;
    let timer: TimerHandle | undefined;
    // Stop and pause end the wait too: the loop must not hold them up for the watcher's sake.
    const stopped = new Promise<void>((resolve) => (this.#stopWaiting = resolve));
    await Promise.race([
      watcher.deletionsOut(),
      stopped,
      new Promise<void>((resolve) => (timer = this.#clock.setTimeout(resolve, DELETIONS_WAIT_MS))),
    ]);
    this.#stopWaiting = undefined;
    if (timer !== undefined) this.#clock.clearTimeout(timer);
  }

  /** Ends a wait under way (stop, pause). */
  stopWaiting(): void {
    this.#stopWaiting?.();
  }
}
