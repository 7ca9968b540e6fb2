// The pairs whose states one client knows, and a path's pair found by its deepest folder: what the service and the offline answer share.
import { realpathSync } from 'node:fs';
import type { FileStateAnswer, FileStateEntry } from '../../common/file-state.ts';
import type { PairStates, PathAnswer } from './pair-states.ts';

interface Served {
  states: PairStates;
  /** The folder and, when a link leads to it, its real path: a path is matched against both. */
  roots: string[];
}

export class StateBook {
  readonly #served = new Map<string, Served>();

  add(states: PairStates): void {
    this.#served.set(states.folder, { states, roots: rootsOf(states.folder) });
  }

  /** Whether it was there. */
  remove(states: PairStates): boolean {
    if (this.#served.get(states.folder)?.states !== states) return false;
    this.#served.delete(states.folder);
    return true;
  }

  has(states: PairStates): boolean {
    return this.#served.get(states.folder)?.states === states;
  }

  find(predicate: (states: PairStates) => boolean): PairStates | undefined {
    return [...this.#served.values()].find((served) => predicate(served.states))?.states;
  }

  pairs(): PairStates[] {
    return [...this.#served.values()].map((served) => served.states);
  }

  folders(): string[] {
    return [...this.#served.keys()].sort();
  }

  stateOf(given: string): FileStateAnswer {
    const found = this.pairOf(trimmed(given));
    if (found === undefined) return { path: given, state: 'outside', kind: null, shared: false };
    return answerOf(given, found.states.folder, found.relative, found.states.stateOf(found.relative));
  }

  /** A folder's own answer and its entries by name (none when it is not a folder this client syncs). */
  childrenOf(given: string): { folder: FileStateAnswer; entries: Record<string, FileStateEntry> } {
    const folder = this.stateOf(given);
    const found = this.pairOf(trimmed(given));
    if (found === undefined || folder.kind !== 'folder' || folder.state === 'outside') {
      return { folder, entries: {} };
    }
    return { folder, entries: found.states.entriesOf(found.relative) };
  }

  /** The pair holding a path (the deepest folder), and the path inside it. */
  pairOf(path: string): { states: PairStates; relative: string } | undefined {
    let best: { states: PairStates; relative: string; depth: number } | undefined;
    for (const served of this.#served.values()) {
      for (const root of served.roots) {
        const relative = relativeTo(root, path);
        if (relative !== undefined && (best === undefined || root.length > best.depth)) {
          best = { states: served.states, relative, depth: root.length };
        }
      }
    }
    return best;
  }
}

/** A path's answer on the wire: absolute paths, the folder named, `from` only when it is another path. */
export function answerOf(path: string, folder: string, relative: string, state: PathAnswer): FileStateAnswer {
  const { from, ...rest } = state;
  return {
    path,
    ...rest,
    ...(rest.state === 'outside' ? {} : { folder }),
    ...(from === undefined || from === relative ? {} : { from: `${folder}/${from}` }),
  };
}

/** Without a trailing slash (a file manager may give a folder with one). */
export function trimmed(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
}

function relativeTo(root: string, path: string): string | undefined {
  if (path === root) return '';
  const prefix = root === '/' ? '/' : `${root}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

function rootsOf(folder: string): string[] {
  try {
    const real = realpathSync(folder);
    return real === folder ? [folder] : [folder, real];
  } catch {
    return [folder];
  }
}
