// Groups and rate-limits the window's notifications: the first of a kind shows at once, a burst after it becomes one notification with a count.
import type { NotificationView } from '../../common/contract.ts';
import type { Clock, TimerHandle } from '../system/clock.ts';

export type NotificationInput = Omit<NotificationView, 'id' | 'count'>;

export interface NotificationGrouperOptions {
  clock: Clock;
  /** After a notification of a kind (and pair), others of it wait this long and go out as one. */
  quietMs?: number;
  emit: (notification: NotificationView) => void;
  /** The words of a group of `count` (default: the last one's, with the count in the title). */
  summarize?: (last: NotificationInput, count: number) => NotificationInput;
}

interface Group {
  /** When the last notification of this key went out. */
  lastShownAtMs: number;
  pending: { input: NotificationInput; count: number } | null;
  timer: TimerHandle | undefined;
}

/** desktop-app.md §5: a burst of 200 conflicts is one notification, not 200. */
export class NotificationGrouper {
  readonly #options: NotificationGrouperOptions;
  readonly #groups = new Map<string, Group>();
  #next = 1;

  constructor(options: NotificationGrouperOptions) {
    this.#options = options;
  }

  add(input: NotificationInput): void {
    const key = `${input.kind}\n${input.pairId ?? ''}`;
    const quietMs = this.#options.quietMs ?? 10_000;
    const now = this.#options.clock.now();
    let group = this.#groups.get(key);
    if (group === undefined) {
      group = { lastShownAtMs: Number.NEGATIVE_INFINITY, pending: null, timer: undefined };
      this.#groups.set(key, group);
    }
    if (group.pending === null && now - group.lastShownAtMs >= quietMs) {
      group.lastShownAtMs = now;
      this.#emit(input, 1);
      return;
    }
    group.pending = { input, count: (group.pending?.count ?? 0) + 1 };
    if (group.timer === undefined) {
      const waitMs = Math.max(0, group.lastShownAtMs + quietMs - now);
      const current = group;
      current.timer = this.#options.clock.setTimeout(() => this.#flush(current), waitMs);
    }
  }

  /** Drops what waits (the window is closing). */
  close(): void {
    for (const group of this.#groups.values()) {
      if (group.timer !== undefined) this.#options.clock.clearTimeout(group.timer);
    }
    this.#groups.clear();
  }

  #flush(group: Group): void {
    group.timer = undefined;
    const pending = group.pending;
    group.pending = null;
    if (pending === null) return;
    group.lastShownAtMs = this.#options.clock.now();
    this.#emit(pending.input, pending.count);
  }

  #emit(input: NotificationInput, count: number): void {
    const id = `n${this.#next}`;
    this.#next += 1;
    const words = count === 1 ? input : (this.#options.summarize ?? defaultSummary)(input, count);
    this.#options.emit({ ...words, id, count });
  }
}

function defaultSummary(last: NotificationInput, count: number): NotificationInput {
  return { ...last, title: `${last.title} (${count})` };
}
