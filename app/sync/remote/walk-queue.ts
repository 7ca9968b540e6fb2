// How the remote walk spreads its work: folders breadth first, many at once, and requests in a bounded number of slots.
import { AbortedError } from '../../../common/errors.ts';

/**
 * Visits folders breadth first from `start`, at most `inFlight` at once, each visit giving the next
 * folders. The first failure ends it: `onFailure` runs once (to stop the visits in flight), then the
 * promise rejects.
 */
export function breadthFirst<Folder>(
  start: Folder,
  inFlight: number,
  visit: (folder: Folder) => Promise<Folder[]>,
  onFailure: () => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const queue: Folder[] = [start];
    let active = 0;
    let failed = false;
    const pump = (): void => {
      if (failed) return;
      while (active < inFlight && queue.length > 0) {
        const folder = queue.shift() as Folder;
        active += 1;
        visit(folder).then(
          (subfolders) => {
            active -= 1;
            queue.push(...subfolders);
            if (active === 0 && queue.length === 0) resolve();
            else pump();
          },
          (error: unknown) => {
            active -= 1;
            if (failed) return;
            failed = true;
            onFailure();
            reject(error instanceof Error ? error : new AbortedError());
          },
        );
      }
    };
    pump();
  });
}

/** At most `size` calls of `run` at once; the others wait their turn. */
export class Slots {
  readonly #size: number;
  readonly #waiting: Array<() => void> = [];
  #used = 0;

  constructor(size: number) {
    this.#size = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#used >= this.#size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#used += 1;
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#used -= 1;
      else next();
    }
  }
}
