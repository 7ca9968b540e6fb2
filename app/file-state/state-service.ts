// One running client's state service: its pairs' states behind one socket, changes pushed to subscribers once per turn of the event loop.
import type { FileStateAction, FileStateAnswer, FileStateEntry } from '../../common/file-state.ts';
import { PairStates, type PairStatesOptions } from './pair-states.ts';
import { answerOf, StateBook, trimmed } from './state-book.ts';
import { StateError } from './state-errors.ts';
import { startStateServer, type StateServer } from './state-server.ts';
import { stateSocketDir, stateSocketPath } from './state-socket-path.ts';

/** What the client does for a menu entry; paths are absolute and inside its folders. */
export type StateActions = (action: FileStateAction, paths: readonly string[]) => Promise<string>;

export interface StateServiceOptions {
  profileDir: string;
  /** The menu entries this client carries out; without it every `act` is refused with words. */
  actions?: StateActions;
  log?: (level: 'warn' | 'error', message: string) => void;
  /** The remote ids shared by a link (the account's shares), asked after each pass of a pair. */
  sharedIds?: () => Promise<ReadonlySet<string>>;
  /** The socket (tests); default `<stateSocketDir(profile)>/<pid>.sock`. */
  socketPath?: string;
}

const SHARES_TTL_MS = 20_000;

export class StateService {
  readonly #book = new StateBook();
  readonly #pending = new Map<PairStates, Set<string>>();
  #flush: NodeJS.Immediate | undefined;
  /** When the first change waiting for the next push was recorded. */
  #pendingSinceMs: number | undefined;
  #server: StateServer | undefined;
  readonly #options: StateServiceOptions;
  /** The account's shared ids, asked at most every SHARES_TTL_MS whatever the number of pairs and passes. */
  #shared: { atMs: number; ids: Promise<ReadonlySet<string>> } | undefined;

  private constructor(options: StateServiceOptions) {
    this.#options = options;
  }

  /** Starts listening; the pairs are added as their services start. */
  static async start(options: StateServiceOptions): Promise<StateService> {
    const service = new StateService(options);
    const socketPath = options.socketPath ?? stateSocketPath(stateSocketDir(options.profileDir), process.pid);
    service.#server = await startStateServer({
      socketPath,
      handler: {
        folders: () => service.folders(),
        state: (paths) => paths.map((path) => service.stateOf(path)),
        children: (path) => service.childrenOf(path),
        act: (action, paths) => service.#act(action, paths),
        sharesChanged: () => service.sharesChanged(),
      },
      ...(options.log === undefined ? {} : { log: options.log }),
    });
    return service;
  }

  get socketPath(): string {
    return this.#server?.socketPath ?? '';
  }

  /** Tracks a pair's states from now on (its live service feeds them); replaces one for the same folder. */
  track(options: Omit<PairStatesOptions, 'onChange' | 'sharedIds'>): PairStates {
    const sharedIds = this.#options.sharedIds === undefined ? undefined : () => this.#sharedIds();
    // The constructor may already report (the conflicts the index holds): before it is tracked, nobody
    // can have asked about the pair, so there is nothing to push.
    const made: { states?: PairStates } = {};
    const states = new PairStates({
      ...options,
      ...(sharedIds === undefined ? {} : { sharedIds }),
      onChange: (paths) => {
        if (made.states !== undefined) this.#changed(made.states, paths);
      },
    });
    made.states = states;
    void states.refreshShares();
    this.#book.add(states);
    this.#server?.foldersChanged();
    return states;
  }

  /** A pair no longer served (stopped, removed). */
  untrack(observer: unknown): void {
    const states = this.#book.find((states) => states === observer);
    if (states === undefined || !this.#book.remove(states)) return;
    states.close();
    this.#pending.delete(states);
    this.#server?.foldersChanged();
  }

  folders(): string[] {
    return this.#book.folders();
  }

  stateOf(path: string): FileStateAnswer {
    return this.#book.stateOf(path);
  }

  childrenOf(path: string): { folder: FileStateAnswer; entries: Record<string, FileStateEntry> } {
    return this.#book.childrenOf(path);
  }

  /** A share made or revoked here: the next ask goes to the device. */
  sharesChanged(): void {
    this.#shared = undefined;
    for (const states of this.#book.pairs()) void states.refreshShares();
  }

  #sharedIds(): Promise<ReadonlySet<string>> {
    const ask = this.#options.sharedIds;
    if (ask === undefined) return Promise.resolve(new Set());
    const now = Date.now();
    if (this.#shared === undefined || now - this.#shared.atMs > SHARES_TTL_MS) {
      const ids = ask();
      this.#shared = { atMs: now, ids };
      // A failed ask is not kept: the next one tries again.
      ids.catch(() => {
        if (this.#shared?.ids === ids) this.#shared = undefined;
      });
    }
    return this.#shared.ids;
  }

  /** Stops listening; the pairs' services stop on their own. */
  async close(): Promise<void> {
    if (this.#flush !== undefined) clearImmediate(this.#flush);
    await this.#server?.close();
  }

  async #act(action: FileStateAction, paths: readonly string[]): Promise<string> {
    for (const path of paths) {
      if (this.#book.pairOf(trimmed(path)) === undefined) {
        throw new StateError('STATE_NOT_SERVED', `${path} is not in a folder this client syncs.`);
      }
    }
    const actions = this.#options.actions;
    if (actions === undefined) throw new StateError('STATE_ACTION_FAILED', 'This client cannot do that.');
    return actions(action, paths.map(trimmed));
  }

  #changed(states: PairStates, paths: readonly string[]): void {
    if ((this.#server?.subscribers() ?? 0) === 0 || !this.#book.has(states)) return;
    let pending = this.#pending.get(states);
    if (pending === undefined) {
      pending = new Set();
      this.#pending.set(states, pending);
    }
    for (const path of paths) pending.add(path);
    this.#pendingSinceMs ??= performance.timeOrigin + performance.now();
    this.#flush ??= setImmediate(() => {
      this.#flush = undefined;
      const atMs = this.#pendingSinceMs ?? Date.now();
      this.#pendingSinceMs = undefined;
      const answers: FileStateAnswer[] = [];
      for (const [pair, changed] of this.#pending) {
        for (const relative of changed) {
          const absolute = relative === '' ? pair.folder : `${pair.folder}/${relative}`;
          answers.push(answerOf(absolute, pair.folder, relative, pair.stateOf(relative)));
        }
      }
      this.#pending.clear();
      this.#server?.push(answers, atMs);
    });
  }
}
