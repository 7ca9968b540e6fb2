// Applies tray models to the real tray at most once a second, and only what changed (desktop-app.md §3).
import type { Clock, TimerHandle } from '../system/clock.ts';
import type { TrayMenuItem, TrayModel } from './tray-model.ts';

/** What the tray must change; a field is present only when it differs from what was applied last. */
export interface TrayChange {
  icon?: string;
  tooltip?: string;
  menu?: TrayMenuItem[];
}

export interface TrayUpdaterOptions {
  clock: Clock;
  apply: (change: TrayChange) => void;
  /** The shortest time between two applies (1000). */
  minIntervalMs?: number;
}

/**
 * Status events arrive many times a second during a pass; each would change the tooltip's numbers.
 * The first change after a quiet second is applied at once (a state change shows without delay),
 * later ones wait for the end of the second and only the latest model is applied then (the trailing
 * edge, so the tray never stays on a stale state). A model that changes nothing applies nothing and
 * sets no timer: an idle app does no tray work at all.
 *
 * The menu rides the same throttle instead of being applied at once: its status line changes with
 * every event, and rebuilding a native menu is the costly part (on Linux a new D-Bus menu layout each
 * time, which also closes an open menu under the pointer). There is no reliable "menu will open"
 * event to refresh it on demand either: Electron's tray sends no click events on Linux once a context
 * menu is set. An open menu is at most a second behind, which is what the tooltip is too.
 */
export class TrayUpdater {
  readonly #clock: Clock;
  readonly #apply: (change: TrayChange) => void;
  readonly #minIntervalMs: number;
  #icon: string | null = null;
  #tooltip: string | null = null;
  /** The applied menu as JSON: compared whole, since any label or flag may have changed. */
  #menuJson: string | null = null;
  #lastApplyMs: number | null = null;
  #latest: TrayModel | null = null;
  #timer: TimerHandle | null = null;
  #closed = false;

  constructor(options: TrayUpdaterOptions) {
    this.#clock = options.clock;
    this.#apply = options.apply;
    this.#minIntervalMs = options.minIntervalMs ?? 1000;
  }

  update(model: TrayModel): void {
    if (this.#closed) return;
    this.#latest = model;
    if (this.#timer !== null) return;
    const now = this.#clock.now();
    const since = this.#lastApplyMs === null ? Infinity : now - this.#lastApplyMs;
    if (since >= this.#minIntervalMs) {
      this.#flush();
      return;
    }
    if (this.#changeOf(model) === null) return;
    this.#arm(this.#minIntervalMs - since);
  }

  /** Stops: a pending change is dropped, and later updates are ignored (the tray is being destroyed). */
  close(): void {
    this.#closed = true;
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#latest = null;
  }

  #arm(delayMs: number): void {
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = null;
      // Node may run a timer up to a millisecond before performance.now() says it is due (libuv
      // rounds its loop time): wait out the rest, so two applies are never less than the interval apart.
      const left = this.#minIntervalMs - (this.#clock.now() - (this.#lastApplyMs ?? -Infinity));
      if (left > 0) this.#arm(Math.max(1, left));
      else this.#flush();
    }, delayMs);
  }

  #flush(): void {
    const model = this.#latest;
    if (model === null || this.#closed) return;
    const change = this.#changeOf(model);
    if (change === null) return;
    this.#icon = model.icon;
    this.#tooltip = model.tooltip;
    this.#menuJson = JSON.stringify(model.menu);
    this.#lastApplyMs = this.#clock.now();
    this.#apply(change);
  }

  #changeOf(model: TrayModel): TrayChange | null {
    const change: TrayChange = {};
    if (model.icon !== this.#icon) change.icon = model.icon;
    if (model.tooltip !== this.#tooltip) change.tooltip = model.tooltip;
    if (JSON.stringify(model.menu) !== this.#menuJson) change.menu = model.menu;
    return Object.keys(change).length === 0 ? null : change;
  }
}
