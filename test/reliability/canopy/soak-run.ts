// Runs one soak scenario: the engine behind a relay that can crash it, the device's faults, changes mid-pass, and issue 26's folder, upload and second-process disturbances.
import { join } from 'node:path';
import type { EngineLogLine } from '../../../app/sync/engine.ts';
import type { PassIssue, PassReport } from '../../../app/sync/pass-report.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { checkTreesMatch, requiredContents, type Violation } from './invariants.ts';
import { Ledger } from './ledger.ts';
import { runLiveScenario } from './live-run.ts';
import type { TreeItem } from './model.ts';
import { rootPhaseOnce } from './root-phase.ts';
import { SecondProcess } from './second-process.ts';
import { EngineHosts, startFaultyFront } from './soak-host.ts';
import type { SoakScenario } from './soak-scenario.ts';
import { disturbancesHere, SeedSetup } from './seed-setup.ts';
import { RESUMABLE_FOR_SEEDS } from './upload-change.ts';
import { checkAtQuiet, excludeOnce, includeOnce, SeedChanges } from './soak-selection.ts';

/** Passes the faults last for after the pass they start with (each may leave items to retry). */
const PASSES_UNDER_FAULTS = 2;

export interface SoakResult {
  violations: Violation[];
  phase: 'first pass' | 'folder changed' | 'exclusion' | 'changes' | 'inclusion' | null;
  log: EngineLogLine[];
  requests: string[];
  issues: PassIssue[];
  /** Whether the planned crash happened (a pass with fewer requests than `at` ends first). */
  crashed: boolean;
  /** Changes made mid-pass that could not be made (the engine had changed their paths). */
  impossible: string[];
  /** Passes the run took in all. */
  passes: number;
  /** Whether big.bin was changed while an upload of it was being sent (issue 26; a pass may send none). */
  uploadChanged: boolean;
}

export async function runSoakScenario(scenario: SoakScenario, device: TestDevice): Promise<SoakResult> {
  const soak = disturbancesHere(scenario.soak);
  if (soak.live) return runLiveScenario(scenario, soak, device);
  const setup = new SeedSetup(scenario, soak, device, 'soak');
  const faulty = soak.faults === null ? undefined : await startFaultyFront(device, soak.faults);
  const { local, upload } = setup;
  const second =
    soak.second === null
      ? undefined
      : new SecondProcess(soak.second, setup.work, local.root, setup.remoteFolder, device);
  const hosts = new EngineHosts({
    device,
    localRoot: local.root,
    remoteFolder: setup.remoteFolder,
    indexPath: join(setup.work, 'index.db'),
    env: setup.env,
    caseInsensitive: scenario.caseInsensitive,
    ...(upload?.plan.resumable === true ? { resumable: RESUMABLE_FOR_SEEDS } : {}),
    ...(upload === undefined ? {} : { tap: upload.tap }),
    ...(second === undefined ? {} : { lock: () => second.lockFirst() }),
    ...(setup.world === undefined ? {} : { selection: setup.world.store, expected: setup.world.expected }),
    ...(setup.onDemand === undefined ? {} : { onDemand: setup.onDemand.policy }),
    ...setup.engineVersions,
  });
  if (setup.versionsOff)
    hosts.log.push({ level: 'info', message: '[harness] versions off: deletes to the trash' });
  setup.indexNow = () => hosts.host.index;
  const onDemand = setup.onDemand;
  const finish = (violations: Violation[], phase: SoakResult['phase'], ledger?: Ledger): SoakResult => ({
    violations,
    phase: violations.length === 0 ? null : phase,
    log: [
      ...hosts.log,
      ...(onDemand?.story ?? []).map((line) => ({
        level: 'info' as const,
        message: `[harness, files on demand] ${line}`,
      })),
    ],
    // Filled in when the last process stops (finally, below).
    requests: hosts.requests,
    issues: hosts.issues,
    crashed: hosts.crashed,
    impossible: [...(ledger?.impossible ?? []), ...(onDemand?.impossible ?? [])],
    passes: hosts.passes,
    uploadChanged: upload?.firedInPass !== undefined,
  });
  const state = () =>
    setup.state(hosts.host.index.db.open ? [...hosts.host.index.entries()] : [], lastIssues(hosts.last));
  /** One pass; when it is the one that met big.bin's change, whether it says so. */
  const pass = async (): Promise<PassReport | Error> => {
    upload?.passStarts(hosts.passes + 1);
    const report = await hosts.pass();
    if (upload !== undefined && upload.firedInPass === hosts.passes && hosts.host.index.db.open)
      upload.violations.push(...upload.checkPass(report, [...hosts.host.index.entries()]));
    return report;
  };
  const { crash, during } = soak;
  try {
    await setup.connect(device);
    await second?.prepare(setup.work);
    await hosts.start();
    // 1. The initial tree, brought over by a first pass that may crash (and may meet big.bin's change).
    await setup.makeInitialTree();
    onDemand?.pinInitial();
    const firstLedger = new Ledger(setup.base, setup.synced);
    if (upload?.plan.pass === 'first') upload.arm(firstLedger, 'first');
    if (crash?.pass === 'first') hosts.armCrash(crash);
    await pass();
    hosts.host.index.disarm();
    hosts.host.relay.arm({});
    const firstViolations = await hosts.untilQuiet('first pass', pass);
    // The initial tree as the user has it now: big.bin may have changed during the first pass.
    const base: TreeItem[] = setup.base.map((item) =>
      item.path === 'big.bin' && upload !== undefined
        ? { ...item, content: upload.versions.at(-1) ?? '' }
        : item,
    );
    if (firstViolations.length === 0) {
      const initial = state();
      firstViolations.push(
        ...checkTreesMatch(initial.local, base, ['local', 'the initial tree']),
        ...setup.check(initial, firstLedger, firstLedger.required()),
      );
    }
    if (firstViolations.length > 0) return finish(firstViolations, 'first pass');

    // 1b. Issue 26: the folder replaced, unplugged or swapped; held passes; put back or restored.
    const ledger = new Ledger(base, setup.synced);
    if (setup.root !== undefined) {
      const changed = await rootPhaseOnce(setup.root, setup.place, setup.remote, hosts);
      for (const content of changed.written) ledger.note(content);
      const aside = setup.root.keptAside();
      if (aside !== undefined && setup.root.plan.answer === 'restore') setup.place.offTree.push(aside);
      if (changed.violations.length > 0) return finish(changed.violations, 'folder changed', ledger);
    }

    // 1c. Issue 30: the pins of items made here, now synced; the user's first steps on placeholders.
    onDemand?.afterFirstPass();
    await onDemand?.apply(ledger, onDemand.plan.before);

    // 1d. Issue 29: the exclusions, their pass (which may crash), quiet.
    const excluded = await excludeOnce(setup, hosts, ledger, soak.selectionCrash ?? null, pass, state);
    if (excluded.length > 0) return finish(excluded, 'exclusion', ledger);

    // 2. The changes: some before the pass, the rest while one of its requests is held.
    const changes = new SeedChanges(scenario, setup, ledger);
    const localFrom = during?.localFrom ?? changes.local.length;
    const remoteFrom = during?.remoteFrom ?? changes.remote.length;
    for (const change of changes.local.slice(0, localFrom)) changes.applyLocal(change);
    // Issue 30: the user's steps on placeholders with the last local changes, before the pass or during it.
    const afterLocal = async (): Promise<void> => onDemand?.apply(ledger, onDemand.plan.after);
    if (localFrom === changes.local.length) await afterLocal();
    for (const change of changes.remote.slice(0, remoteFrom)) await changes.applyRemote(change);
    if (upload?.plan.pass === 'changes') upload.arm(ledger, 'changes');
    let pending = true;
    const midPass = async (): Promise<void> => {
      if (!pending) return;
      pending = false;
      setup.world?.passMayHaveRun();
      for (const change of changes.local.slice(localFrom)) changes.applyLocal(change);
      if (localFrom < changes.local.length) await afterLocal();
      for (const change of changes.remote.slice(remoteFrom)) await changes.applyRemote(change);
    };
    if (crash?.pass === 'changes') hosts.armCrash(crash);
    else hosts.host.relay.arm({});
    if (during !== null) hosts.host.relay.addHold({ at: during.at, where: during.where, run: midPass });
    if (second !== undefined)
      hosts.host.relay.addHold({ at: second.plan.at, where: 'before', run: () => second.attempt() });
    const faultsOn = (): void => {
      if (faulty !== undefined) hosts.host.relay.retarget(faulty.url);
    };
    faultsOn();
    await pass();
    // The pass made fewer requests than the hold waited for: the changes come right after it.
    await midPass();
    await second?.attempt();
    for (let extra = 0; faulty !== undefined && extra < PASSES_UNDER_FAULTS; extra++) {
      // After a crash the new process meets the same faults.
      faultsOn();
      await pass();
    }
    hosts.host.relay.retarget(device.base);
    hosts.host.index.disarm();
    hosts.host.relay.arm({});
    const violations = await hosts.untilQuiet('changes', pass);
    if (violations.length === 0) {
      // Without changes mid-pass (or a merge or a selection the model knows nothing of) the model knows
      // more: a local copy the device's delete removes is in the trash.
      // Nor does it know placeholders, which a device delete removes without a trash (issue 30).
      const modelKnows =
        during === null &&
        setup.root?.plan.answer !== 'restore' &&
        setup.world === undefined &&
        onDemand === undefined;
      const required = modelKnows ? [...ledger.required(), ...requiredContents(scenario)] : ledger.required();
      violations.push(...checkAtQuiet(setup, state(), ledger, required, 'after the changes'));
    }
    violations.push(...changes.violations, ...(second?.violations ?? []));
    if (violations.length > 0) return finish(violations, 'changes', ledger);
    // 3. Issue 29: folders included again.
    return finish(await includeOnce(setup, hosts, ledger, pass, state), 'inclusion', ledger);
  } finally {
    if (hosts.started) await hosts.stop();
    await faulty?.close();
    second?.remove();
    await setup.cleanup();
  }
}

function lastIssues(last: PassReport | Error | undefined): readonly PassIssue[] {
  return last === undefined || last instanceof Error ? [] : last.issues;
}
