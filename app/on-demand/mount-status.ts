// What an on-demand pair's status says of its mount: mounted or not, files downloading for the programs that opened them, the last open that failed.
import type { MountStatus, OpeningFile } from '../../common/sync-status.ts';
import type { HydrateRequest } from '../mount/hydration-protocol.ts';
import type { HydrationEvent } from './hydrator.ts';

/** How long a failed open stays in the status (the window and the tray show it meanwhile). */
export const FAILURE_SHOWN_MS = 5 * 60_000;
/** Progress is told to the front ends at most this often per file (each chunk would be thousands). */
const PROGRESS_EVERY_MS = 250;

export class MountStatusTracker {
  readonly #opening = new Map<string, OpeningFile & { toldAtMs: number }>();
  readonly #now: () => number;
  readonly #onChange: () => void;
  #lastFailure: MountStatus['lastFailure'] = null;
  #mounted = false;

  constructor(options: { onChange: () => void; now?: () => number }) {
    this.#onChange = options.onChange;
    this.#now = options.now ?? Date.now;
  }

  set mounted(mounted: boolean) {
    if (mounted === this.#mounted) return;
    this.#mounted = mounted;
    this.#onChange();
  }

  /** One event of a download for `request` (several requests of one file share its events). */
  note(request: HydrateRequest, event: HydrationEvent): void {
    const now = this.#now();
    const known = this.#opening.get(request.path);
    switch (event.type) {
      case 'started':
        this.#opening.set(request.path, {
          path: request.path,
          process: request.process,
          bytesDone: 0,
          bytesTotal: event.size,
          toldAtMs: now,
        });
        break;
      case 'progress':
        if (known === undefined) return;
        known.bytesDone = event.bytes;
        if (now - known.toldAtMs < PROGRESS_EVERY_MS && event.bytes < known.bytesTotal) return;
        known.toldAtMs = now;
        break;
      case 'done':
        if (!this.#opening.delete(request.path)) return;
        break;
      case 'failed':
        this.#opening.delete(request.path);
        this.#lastFailure = { path: request.path, message: event.message, atMs: now };
        break;
    }
    this.#onChange();
  }

  status(): MountStatus {
    const failure = this.#lastFailure;
    const recent = failure !== null && this.#now() - failure.atMs < FAILURE_SHOWN_MS ? failure : null;
    return {
      mounted: this.#mounted,
      opening: [...this.#opening.values()].map(({ toldAtMs: _told, ...file }) => file),
      lastFailure: recent,
    };
  }
}
