// Runs one scenario against the real engine and device: first pass, both sides' changes, a pass, the checks.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceClient } from '../../../app/api/device-client.ts';
import { openIndexDb } from '../../../app/index/index-db.ts';
import { IndexStore } from '../../../app/index/index-store.ts';
import { SyncEngine, type EngineLogLine } from '../../../app/sync/engine.ts';
import { staysOut, type PassIssue, type PassReport } from '../../../app/sync/pass-report.ts';
import { probeNameTraits } from '../../../app/sync/local/local-names.ts';
import { ensureRemoteFolder } from '../../../app/sync/remote/remote-folder.ts';
import { clientFor } from '../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import {
  applyLocalChange,
  applyRemoteChange,
  buildLocalTree,
  buildRemoteTree,
  type LocalSide,
  type RemoteSide,
} from './apply.ts';
import {
  checkState,
  checkTreesMatch,
  requiredContents,
  type PassState,
  type Violation,
} from './invariants.ts';
import { checkReport, checkStable } from './report-checks.ts';
import { DEFAULT_GENERATOR, type GeneratorOptions, type Scenario } from './scenario.ts';
import { runOnDemandPhases } from './on-demand-run.ts';
import { OnDemandWorld } from './on-demand-world.ts';
import { runSelectionPhases, type SelectionPhase } from './selection-run.ts';
import { SelectionWorld } from './selection-world.ts';
import { readDeviceTree, readLocalTree, readTrashedContents, readVersionStore } from './snapshot.ts';

/** Conflicted-copy names carry the time: a fixed clock makes a scenario's outcome repeatable. */
const FIXED_NOW = new Date('2026-11-23T12:34:56Z');

export interface RunResult {
  /** Empty when every invariant held. */
  violations: Violation[];
  /**
   * Where the first violation showed: the first pass (initial tree), the pass after the changes, or
   * (issue 29) the pass after the exclusions or after the inclusions.
   */
  phase: 'first pass' | 'changes' | 'second pass' | SelectionPhase | null;
  /** What the engine logged, for a failing run's story. */
  log: EngineLogLine[];
  /** `METHOD /path` of every request the engine made. */
  requests: string[];
  /** What each pass reported per item (skips and warnings included), in order. */
  issues: PassIssue[];
}

/**
 * The device for a run of many seeds. Its data goes to memory (/dev/shm) where there is one: every
 * upload flushes its file to disk, which is most of a seed's time on a real disk and is not under test.
 */
export async function startCanopyDevice(): Promise<TestDevice> {
  const memory = '/dev/shm';
  return startTestDevice(
    existsSync(memory) ? { dataDir: mkdtempSync(join(memory, 'mch-canopy-device-')) } : {},
  );
}

/**
 * The generator's settings for this machine: a volume that folds names gets case-insensitive seeds only.
 * `MCH_SELECTION_RATE` (0 to 1) sets the share of seeds with a selective sync plan (issue 29) for
 * `npm run sync-random`, whose command line has no flag for it (0: the seeds as before issue 29).
 */
export function generatorForThisMachine(options: GeneratorOptions = DEFAULT_GENERATOR): GeneratorOptions {
  const traits = probeNameTraits(tmpdir());
  const rateOf = (name: string, given: number | undefined): number | undefined => {
    const rate = process.env[name];
    const value = rate === undefined || rate === '' ? given : Number(rate);
    if (value !== undefined && !(value >= 0 && value <= 1))
      throw new Error(`${name} takes 0 to 1, not ${rate}`);
    return value;
  };
  const selectionRate = rateOf('MCH_SELECTION_RATE', options.selectionRate);
  // Issue 30: the share of seeds whose local client is an on-demand pair (default none).
  const onDemandRate = rateOf('MCH_ON_DEMAND_RATE', options.onDemandRate);
  return {
    ...options,
    foldingVolume: traits.caseInsensitive || traits.normalizationInsensitive,
    ...(selectionRate === undefined ? {} : { selectionRate }),
    ...(onDemandRate === undefined ? {} : { onDemandRate }),
  };
}

/** Runs per seed in this process, so a re-run (shrinking) gets a fresh remote folder. */
const runsOfSeed = new Map<number, number>();

/** Runs `scenario` in its own temporary folders and remote folder, and removes both afterwards. */
export async function runScenario(scenario: Scenario, device: TestDevice): Promise<RunResult> {
  const run = (runsOfSeed.get(scenario.seed) ?? 0) + 1;
  runsOfSeed.set(scenario.seed, run);
  const remoteFolder = run === 1 ? `/canopy-${scenario.seed}` : `/canopy-${scenario.seed}-${run}`;
  const work = mkdtempSync(join(tmpdir(), `mch-canopy-${scenario.seed}-`));
  const local: LocalSide = { root: join(work, 'local'), scratch: join(work, 'scratch') };
  const home = join(work, 'home');
  const dataHome = join(home, '.local', 'share');
  for (const folder of [local.root, local.scratch, dataHome]) mkdirSync(folder, { recursive: true });
  const other = clientFor(device).device;
  const engineClient = clientFor(device);
  const db = openIndexDb(':memory:');
  const index = new IndexStore(db);
  const log: EngineLogLine[] = [];
  const issues: PassIssue[] = [];
  const world = scenario.selection === undefined ? undefined : new SelectionWorld(scenario.selection);
  const trashFolders = [join(dataHome, 'Trash', 'files'), join(local.root, '.mch-sync', 'trash')];
  // Issue 30: an on-demand pair, its hydrations through a client of its own (the service's).
  const onDemand =
    scenario.onDemand === undefined
      ? undefined
      : new OnDemandWorld({
          plan: scenario.onDemand,
          local,
          index: () => index,
          remote: () => remote,
          client: clientFor(device).device,
          trash: trashFolders,
        });
  const engine = new SyncEngine({
    client: engineClient.device,
    index,
    localRoot: local.root,
    remoteFolder,
    now: () => FIXED_NOW,
    log: (line) => log.push(line),
    env: { HOME: home, XDG_DATA_HOME: dataHome },
    caseInsensitive: scenario.caseInsensitive,
    ...(world === undefined ? {} : { selection: world.store }),
    ...(onDemand === undefined ? {} : { onDemand: onDemand.policy }),
  });
  const remote: RemoteSide = {
    client: other,
    device: device.running.context,
    folderId: (await ensureRemoteFolder(other, remoteFolder)).id,
  };
  const state = async (report: PassReport | Error): Promise<PassState> => {
    const skippedOn = (side: PassIssue['side']): string[] =>
      report instanceof Error
        ? []
        : report.issues.filter((issue) => staysOut(issue) && issue.side === side).map((issue) => issue.path);
    const read: PassState = {
      local: readLocalTree(local.root),
      remote: readDeviceTree(remote.device, remote.folderId),
      index: [...index.entries()],
      trashed: readTrashedContents(trashFolders),
      // The index is in memory: its versions rows are read on the engine's own handle.
      versions: readVersionStore(local.root, db),
      remoteRootId: remote.folderId,
      skipped: skippedOn(undefined),
      skippedLocal: skippedOn('local'),
      skippedRemote: skippedOn('remote'),
      nameClashes:
        report instanceof Error
          ? []
          : report.issues
              .filter((issue) => staysOut(issue) && issue.code === 'NAME_CLASH')
              .map((issue) => issue.path),
    };
    return onDemand === undefined ? read : onDemand.view(read);
  };
  const finish = (violations: Violation[], phase: RunResult['phase']): RunResult => ({
    violations,
    phase: violations.length === 0 ? null : phase,
    log,
    requests: engineClient.requests(),
    issues,
  });
  try {
    if (scenario.initialSide === 'local') buildLocalTree(local, scenario.initial);
    else await buildRemoteTree(remote, scenario.initial);
    if (onDemand !== undefined) {
      onDemand.pinInitial();
      const ran = await runOnDemandPhases({
        scenario,
        world: onDemand,
        local,
        remote,
        pass: () => pass(engine, issues),
        state,
        index: () => index,
      });
      for (const line of [...onDemand.story, ...onDemand.impossible.map((step) => `left out: ${step}`)])
        log.push({ level: 'info', message: `[harness, files on demand] ${line}` });
      return finish(ran.violations, ran.phase);
    }
    const first = await pass(engine, issues);
    const initial = await state(first);
    const base = scenario.initial.map((item) => ({ ...item }));
    const firstViolations = [
      ...checkReport(first, 'first pass'),
      ...checkTreesMatch(initial.local, base, ['local', 'the initial tree']),
      ...checkState(
        initial,
        base.flatMap((item) =>
          item.content === undefined ? [] : [{ content: item.content, why: 'initial tree' }],
        ),
      ),
    ];
    if (firstViolations.length > 0) return finish(firstViolations, 'first pass');
    if (world !== undefined) {
      const selected = await runSelectionPhases({
        scenario,
        world,
        local,
        remote,
        pass: () => pass(engine, issues),
        state,
        index: () => index,
      });
      return finish(selected.violations, selected.phase);
    }

    for (const change of scenario.local) applyLocalChange(local, change);
    for (const change of scenario.remote) await applyRemoteChange(remote, change);
    const after = await pass(engine, issues);
    const violations = [
      ...checkReport(after, 'pass'),
      ...checkState(await state(after), requiredContents(scenario)),
    ];
    if (after instanceof Error) return finish(violations, 'changes');
    // Run even after a violation: what the next pass does shows how much a broken state matters.
    const next = checkStable(await pass(engine, issues));
    return violations.length > 0 ? finish([...violations, ...next], 'changes') : finish(next, 'second pass');
  } finally {
    db.close();
    rmSync(work, { recursive: true, force: true });
    await removeRemoteFolder(other, remote.folderId);
  }
}

/** A pass of these small trees takes well under a second: one still going after this never ends (seed 41847). */
const PASS_LIMIT_MS = 60_000;

async function pass(engine: SyncEngine, issues: PassIssue[]): Promise<PassReport | Error> {
  try {
    const signal = AbortSignal.timeout(PASS_LIMIT_MS);
    let report = await engine.syncOnce({ signal });
    // The scenario's local deletes are the user's own: asked about an emptied folder, they confirm.
    if (report.hold?.reason === 'emptied-root')
      report = await engine.syncOnce({ confirmDeletes: true, signal });
    issues.push(...report.issues);
    return report;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

async function removeRemoteFolder(client: DeviceClient, id: string): Promise<void> {
  try {
    await client.delete(id);
  } catch {
    // Cleanup only: a folder left behind costs nothing but space on a test device.
  }
}
