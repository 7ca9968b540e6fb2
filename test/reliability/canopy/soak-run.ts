// Runs one soak scenario: the engine behind a relay that can crash it, the device's faults, changes mid-pass.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SyncEngine, type EngineLogLine } from '../../../app/sync/engine.ts';
import type { PassIssue, PassReport } from '../../../app/sync/pass-report.ts';
import { ensureRemoteFolder } from '../../../app/sync/remote-folder.ts';
import { buildApp } from '../../../device/server.ts';
import { clientFor, type RecordedClient } from '../../helpers/api-client.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { buildLocalTree, buildRemoteTree, type LocalSide, type RemoteSide } from './apply.ts';
import { newEngineProcess, openCrashingIndex, type CrashingIndexStore, type EngineProcess } from './crash.ts';
import {
  checkState,
  checkTreesMatch,
  requiredContents,
  type PassState,
  type Violation,
} from './invariants.ts';
import { Ledger } from './ledger.ts';
import { runLiveScenario } from './live-run.ts';
import { checkNoDuplicatesIn, isQuiet, MAX_PASSES_TO_QUIET } from './soak-invariants.ts';
import type { FaultPlan, SoakScenario } from './soak-scenario.ts';
import { readDeviceTree, readLocalTree, readTrashedContents } from './snapshot.ts';
import { WireRelay } from './wire.ts';

const FIXED_NOW = new Date('2026-11-23T12:34:56Z');
const PASS_LIMIT_MS = 60_000;
/** Passes the faults last for after the pass they start with (each may leave items to retry). */
const PASSES_UNDER_FAULTS = 2;

export interface SoakResult {
  violations: Violation[];
  phase: 'first pass' | 'changes' | null;
  log: EngineLogLine[];
  requests: string[];
  issues: PassIssue[];
  /** Whether the planned crash happened (a pass with fewer requests than `at` ends first). */
  crashed: boolean;
  /** Changes made mid-pass that could not be made (the engine had changed their paths). */
  impossible: string[];
  /** Passes the run took in all. */
  passes: number;
}

/** The engine of one process: a new one after a crash shares nothing with the dead one but files. */
interface EngineHost {
  process: EngineProcess;
  index: CrashingIndexStore;
  engine: SyncEngine;
  client: RecordedClient;
  abort: AbortController;
  /** Its own way to the device: a dead process's relay refuses everything for good. */
  relay: WireRelay;
}

export async function runSoakScenario(scenario: SoakScenario, device: TestDevice): Promise<SoakResult> {
  if (scenario.soak.live) return runLiveScenario(scenario, device);
  const work = mkdtempSync(join(tmpdir(), `mch-soak-${scenario.seed}-`));
  const local: LocalSide = { root: join(work, 'local'), scratch: join(work, 'scratch') };
  const home = join(work, 'home');
  const dataHome = join(home, '.local', 'share');
  for (const folder of [local.root, local.scratch, dataHome]) mkdirSync(folder, { recursive: true });
  const faulty =
    scenario.soak.faults === null ? undefined : await startFaultyFront(device, scenario.soak.faults);
  const other = clientFor(device).device;
  const remoteFolder = `/soak-${scenario.seed}-${Date.now().toString(36)}`;
  const remote: RemoteSide = {
    client: other,
    device: device.running.context,
    folderId: (await ensureRemoteFolder(other, remoteFolder)).id,
  };
  const log: EngineLogLine[] = [];
  const issues: PassIssue[] = [];
  const requests: string[] = [];
  let passes = 0;
  let crashed = false;
  const indexPath = join(work, 'index.db');
  const start = async (): Promise<EngineHost> => {
    const relay = new WireRelay(device.base);
    const relayUrl = await relay.listen();
    const index = openCrashingIndex(indexPath);
    const client = clientFor(device, { deviceUrl: relayUrl });
    const engine = new SyncEngine({
      client: client.device,
      index,
      localRoot: local.root,
      remoteFolder,
      now: () => FIXED_NOW,
      log: (line) => log.push(line),
      env: { HOME: home, XDG_DATA_HOME: dataHome },
      caseInsensitive: scenario.caseInsensitive,
    });
    return { process: newEngineProcess(), index, engine, client, abort: new AbortController(), relay };
  };
  let host = await start();
  let last: PassReport | Error | undefined;
  /** The process dies: no more disk writes, requests or index writes (SQLite rolls back what was open). */
  const kill = (dying: EngineHost): void => {
    crashed = true;
    dying.process.kill();
    dying.abort.abort();
    dying.relay.markCrashed();
    if (dying.index.db.open && !dying.index.db.inTransaction) dying.index.db.close();
  };
  const stop = async (stopped: EngineHost): Promise<void> => {
    requests.push(...stopped.client.requests());
    if (stopped.index.db.open) stopped.index.db.close();
    // A request the dead process had sent still reaches the device; a restart takes longer than that
    // (seed 2742: a create landing after the new process had looked for it in its recovery).
    await stopped.relay.settled();
    await stopped.relay.close();
  };
  const pass = async (): Promise<PassReport | Error> => {
    passes += 1;
    const current = host;
    const run = async (): Promise<PassReport> => {
      const signal = AbortSignal.any([current.abort.signal, AbortSignal.timeout(PASS_LIMIT_MS)]);
      let report = await current.engine.syncOnce({ signal });
      // The scenario's deletes are the user's own: asked about an emptied folder, they confirm.
      if (report.hold?.reason === 'emptied-root')
        report = await current.engine.syncOnce({ confirmDeletes: true, signal });
      return report;
    };
    try {
      const report = await current.process.run(run);
      issues.push(...report.issues);
      last = report;
    } catch (error) {
      last = error instanceof Error ? error : new Error(String(error));
    } finally {
      if (current.process.dead) {
        // A new process: new index connection, engine, client and relay; the dead one's are dropped.
        await stop(current);
        host = await start();
      }
    }
    return last;
  };
  /** Passes until one is quiet; a violation when that takes more than MAX_PASSES_TO_QUIET. */
  const untilQuiet = async (phase: string): Promise<Violation[]> => {
    for (let count = 1; count <= MAX_PASSES_TO_QUIET; count++) {
      const report = await pass();
      if (report instanceof Error) {
        const where = (report.stack ?? report.message).split('\n').slice(0, 4).join('\n');
        return [{ code: 'pass-failed', message: `${phase}, pass ${count} after it: threw ${where}` }];
      }
      if (isQuiet(report)) return [];
    }
    return [{ code: 'not-quiet', message: `${phase}: still not quiet after ${MAX_PASSES_TO_QUIET} passes` }];
  };
  const trashFolders = [join(dataHome, 'Trash', 'files'), join(local.root, '.mch-sync', 'trash')];
  const state = (): PassState => ({
    local: readLocalTree(local.root),
    remote: readDeviceTree(remote.device, remote.folderId),
    index: host.index.db.open ? [...host.index.entries()] : [],
    trashed: readTrashedContents(trashFolders),
    remoteRootId: remote.folderId,
    ...skippedNow(last instanceof Error || last === undefined ? [] : last.issues),
  });
  const { crash, during } = scenario.soak;
  const armCrash = (): void => {
    if (crash === null) return;
    const onCrash = (): void => kill(host);
    if (crash.how === 'in-transaction') {
      host.relay.arm({ onCrash });
      host.index.crashInTransaction(crash.at, () => {
        kill(host);
      });
    } else {
      host.relay.arm({ crash: { at: crash.at, how: crash.how }, onCrash });
    }
  };
  // `requests` is filled in when the last process stops (finally, below).
  const finish = (violations: Violation[], phase: SoakResult['phase'], ledger?: Ledger): SoakResult => {
    return {
      violations,
      phase: violations.length === 0 ? null : phase,
      log,
      requests,
      issues,
      crashed,
      impossible: ledger?.impossible ?? [],
      passes,
    };
  };
  try {
    // 1. The initial tree, brought over by a first pass that may crash.
    if (scenario.initialSide === 'local') buildLocalTree(local, scenario.initial);
    else await buildRemoteTree(remote, scenario.initial);
    if (crash?.pass === 'first') armCrash();
    await pass();
    host.index.disarm();
    host.relay.arm({});
    const base = scenario.initial.map((item) => ({ ...item }));
    const baseLedger = new Ledger(base);
    const firstViolations = await untilQuiet('first pass');
    if (firstViolations.length === 0) {
      const initial = state();
      firstViolations.push(
        ...checkTreesMatch(initial.local, base, ['local', 'the initial tree']),
        ...checkState(initial, baseLedger.required()),
        ...checkNoDuplicatesIn(initial, baseLedger.allowedCopies()),
      );
    }
    if (firstViolations.length > 0) return finish(firstViolations, 'first pass');

    // 2. The changes: some before the pass, the rest while one of its requests is held.
    const ledger = new Ledger(base);
    const localFrom = during?.localFrom ?? scenario.local.length;
    const remoteFrom = during?.remoteFrom ?? scenario.remote.length;
    for (const change of scenario.local.slice(0, localFrom)) ledger.local(local, change);
    for (const change of scenario.remote.slice(0, remoteFrom)) await ledger.remote(remote, change);
    let pending = true;
    const midPass = async (): Promise<void> => {
      if (!pending) return;
      pending = false;
      for (const change of scenario.local.slice(localFrom)) ledger.local(local, change);
      for (const change of scenario.remote.slice(remoteFrom)) await ledger.remote(remote, change);
    };
    if (crash?.pass === 'changes') armCrash();
    else host.relay.arm({});
    if (during !== null) host.relay.addHold({ at: during.at, where: during.where, run: midPass });
    const faultsOn = (): void => {
      if (faulty !== undefined) host.relay.retarget(faulty.url);
    };
    faultsOn();
    await pass();
    // The pass made fewer requests than the hold waited for: the changes come right after it.
    await midPass();
    for (let extra = 0; faulty !== undefined && extra < PASSES_UNDER_FAULTS; extra++) {
      // After a crash the new process meets the same faults.
      faultsOn();
      await pass();
    }
    host.relay.retarget(device.base);
    host.index.disarm();
    host.relay.arm({});
    const violations = await untilQuiet('changes');
    if (violations.length === 0) {
      const after = state();
      // Without changes mid-pass the model knows more: a local copy the device's delete removes is in the trash.
      const required =
        during === null ? [...ledger.required(), ...requiredContents(scenario)] : ledger.required();
      violations.push(...checkState(after, required), ...checkNoDuplicatesIn(after, ledger.allowedCopies()));
    }
    return finish(violations, 'changes', ledger);
  } finally {
    await stop(host);
    await faulty?.close();
    rmSync(work, { recursive: true, force: true });
    try {
      await other.delete(remote.folderId);
    } catch {
      // Cleanup only.
    }
  }
}

/** What the last passes reported as skipped: those items may be on one side only. */
function skippedNow(
  issues: readonly PassIssue[],
): Pick<PassState, 'skipped' | 'skippedLocal' | 'skippedRemote'> {
  const on = (side: PassIssue['side']): string[] =>
    issues.filter((issue) => issue.kind === 'skipped' && issue.side === side).map((issue) => issue.path);
  return { skipped: on(undefined), skippedLocal: on('local'), skippedRemote: on('remote') };
}

/**
 * The same device (one store, one set of content files) answering on a second port with its own fault
 * injection (device/faults.ts, what `mch-device --faults` installs): the engine's requests go there
 * while the other client and the checks use the plain port.
 */
async function startFaultyFront(
  device: TestDevice,
  plan: FaultPlan,
): Promise<{ url: string; close: () => Promise<void> }> {
  const spec = {
    error: plan.error,
    reset: plan.reset,
    lost: plan.lost,
    scope: 'device' as const,
    ...(plan.latencyMs > 0 ? { latency: { min: 0, max: plan.latencyMs } } : {}),
  };
  const app = buildApp(device.running.context, 'silent', { spec, seed: plan.seed });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
