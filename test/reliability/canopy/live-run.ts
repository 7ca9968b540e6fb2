// A soak scenario through the live service: watcher, debounce, incremental passes and polls, changes as it runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openIndexDb } from '../../../app/index/index-db.ts';
import { IndexStore } from '../../../app/index/index-store.ts';
import { knownItemsFromIndex } from '../../../app/live/index-known-items.ts';
import { startLocalWatcher } from '../../../app/live/local-watcher.ts';
import { LiveSync } from '../../../app/service/live-sync.ts';
import {
  SyncEngine,
  type EngineLogLine,
  type SyncEngineOptions,
  type SyncOptions,
} from '../../../app/sync/engine.ts';
import type { PassIssue, PassReport } from '../../../app/sync/pass-report.ts';
import { ensureRemoteFolder } from '../../../app/sync/remote-folder.ts';
import { clientFor } from '../../helpers/api-client.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { buildLocalTree, buildRemoteTree, type LocalSide, type RemoteSide } from './apply.ts';
import { checkState, checkTreesMatch, type Violation } from './invariants.ts';
import { Ledger } from './ledger.ts';
import { Random } from './random.ts';
import { checkNoDuplicatesIn, isQuiet } from './soak-invariants.ts';
import type { SoakResult } from './soak-run.ts';
import type { SoakScenario } from './soak-scenario.ts';
import { WireRelay } from './wire.ts';
import { readDeviceTree, readLocalTree, readTrashedContents } from './snapshot.ts';

const FIXED_NOW = new Date('2026-11-23T12:34:56Z');
const DEBOUNCE_MS = 40;
const POLL_MS = 150;
/**
 * The watcher holds an unlink this long for an add of the same inode (a move); 1 s by default, shorter
 * here so a seed does not wait a second per delete. Events of one move come within microseconds here.
 */
const MOVE_WINDOW_MS = 250;
/** A pass that starts this long after a change comes after the watcher's batch of it (or is its own). */
const SETTLE_MS = MOVE_WINDOW_MS + DEBOUNCE_MS + 100;
/** Quiet is two passes, begun after the last change had time to be seen, finding nothing; this long at most. */
const QUIET_LIMIT_MS = 30_000;

interface Seen {
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

export async function runLiveScenario(scenario: SoakScenario, device: TestDevice): Promise<SoakResult> {
  const work = mkdtempSync(join(tmpdir(), `mch-soak-live-${scenario.seed}-`));
  const local: LocalSide = { root: join(work, 'local'), scratch: join(work, 'scratch') };
  const home = join(work, 'home');
  const dataHome = join(home, '.local', 'share');
  for (const folder of [local.root, local.scratch, dataHome]) mkdirSync(folder, { recursive: true });
  const other = clientFor(device).device;
  const remoteFolder = `/soak-live-${scenario.seed}-${Date.now().toString(36)}`;
  const remote: RemoteSide = {
    client: other,
    device: device.running.context,
    folderId: (await ensureRemoteFolder(other, remoteFolder)).id,
  };
  const db = openIndexDb(join(work, 'index.db'));
  const index = new IndexStore(db);
  // The engine's requests go through a relay only so that a remote change can have the device to itself.
  const relay = new WireRelay(device.base);
  const engineClient = clientFor(device, { deviceUrl: await relay.listen() });
  const log: EngineLogLine[] = [];
  const seen: Seen[] = [];
  const live = new LiveSync({
    knownItem: knownItemsFromIndex(index),
    engine: (events) =>
      new WatchedEngine(
        {
          client: engineClient.device,
          index,
          localRoot: local.root,
          remoteFolder,
          now: () => FIXED_NOW,
          log: (line) => log.push(line),
          env: { HOME: home, XDG_DATA_HOME: dataHome },
          caseInsensitive: scenario.caseInsensitive,
          events,
        },
        seen,
      ),
    localRoot: local.root,
    remoteFolder,
    pollMs: POLL_MS,
    activePollMs: POLL_MS,
    debounceMs: DEBOUNCE_MS,
    log: (line) => log.push(line),
    watch: (options) => startLocalWatcher({ ...options, moveWindowMs: MOVE_WINDOW_MS }),
  });
  /** Waits until the service's own passes say quiet: two begun SETTLE_MS after `sinceMs` found nothing. */
  const quiet = async (sinceMs: number, phase: string): Promise<Violation[]> => {
    const deadline = Date.now() + QUIET_LIMIT_MS;
    while (Date.now() < deadline) {
      // The scenario's deletes are the user's own: an emptied folder's hold is confirmed.
      if (live.hold()?.reason === 'emptied-root') live.confirmDeletes();
      await live.whenIdle();
      const after = seen.filter((pass) => pass.startedAtMs >= sinceMs + SETTLE_MS);
      const failed = after.find((pass) => pass.report instanceof Error);
      if (failed !== undefined && failed.report instanceof Error) {
        return [{ code: 'pass-failed', message: `${phase}: a live pass threw ${failed.report.message}` }];
      }
      const lastTwo = after.slice(-2);
      if (lastTwo.length === 2 && lastTwo.every((pass) => isQuiet(pass.report))) return [];
      await sleep(POLL_MS / 3);
    }
    return [
      { code: 'not-quiet', message: `${phase}: the live service still had work after ${QUIET_LIMIT_MS} ms` },
    ];
  };
  const state = () => {
    const last = seen.at(-1)?.report;
    const issues: readonly PassIssue[] = last === undefined || last instanceof Error ? [] : last.issues;
    const on = (side: PassIssue['side']): string[] =>
      issues.filter((issue) => issue.kind === 'skipped' && issue.side === side).map((issue) => issue.path);
    return {
      local: readLocalTree(local.root),
      remote: readDeviceTree(remote.device, remote.folderId),
      index: [...index.entries()],
      trashed: readTrashedContents([
        join(dataHome, 'Trash', 'files'),
        join(local.root, '.mch-sync', 'trash'),
      ]),
      remoteRootId: remote.folderId,
      skipped: on(undefined),
      skippedLocal: on('local'),
      skippedRemote: on('remote'),
    };
  };
  const result = (violations: Violation[], phase: SoakResult['phase'], ledger?: Ledger): SoakResult => ({
    violations,
    phase: violations.length === 0 ? null : phase,
    log,
    requests: engineClient.requests(),
    issues: seen.flatMap((pass) => (pass.report instanceof Error ? [] : pass.report.issues)),
    crashed: false,
    impossible: ledger?.impossible ?? [],
    passes: seen.length,
  });
  try {
    if (scenario.initialSide === 'local') buildLocalTree(local, scenario.initial);
    else await buildRemoteTree(remote, scenario.initial);
    const startedAt = Date.now();
    await live.start();
    const base = scenario.initial.map((item) => ({ ...item }));
    const first = await quiet(startedAt - SETTLE_MS, 'first pass');
    if (first.length === 0) {
      const initial = state();
      first.push(
        ...checkTreesMatch(initial.local, base, ['local', 'the initial tree']),
        ...checkState(initial, new Ledger(base).required()),
      );
    }
    if (first.length > 0) return result(first, 'first pass');
    // Both users at work while the service runs: their changes interleaved, a few milliseconds apart.
    const ledger = new Ledger(base);
    const random = new Random(scenario.seed ^ 0x11fe);
    const queue = { local: [...scenario.local], remote: [...scenario.remote] };
    while (queue.local.length > 0 || queue.remote.length > 0) {
      const side =
        queue.remote.length === 0 || (queue.local.length > 0 && random.chance(0.5)) ? 'local' : 'remote';
      const change = queue[side].shift();
      if (change === undefined) continue;
      if (side === 'local') ledger.local(local, change);
      else await relay.exclusive(() => ledger.remote(remote, change));
      await sleep(random.int(0, 60));
    }
    const violations = await quiet(Date.now(), 'changes');
    if (violations.length === 0) {
      const after = state();
      violations.push(
        ...checkState(after, ledger.required()),
        ...checkNoDuplicatesIn(after, ledger.allowedCopies()),
      );
    }
    return result(violations, 'changes', ledger);
  } finally {
    await live.stop();
    await relay.close();
    db.close();
    rmSync(work, { recursive: true, force: true });
    try {
      await other.delete(remote.folderId);
    } catch {
      // Cleanup only.
    }
  }
}
