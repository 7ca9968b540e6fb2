// A soak scenario through the live service: watcher, debounce, incremental passes and polls, changes as it runs; issue 26's bulk deletes and replaced folders too.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PassIssue } from '../../../app/sync/pass-report.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { checkTreesMatch, type Violation } from './invariants.ts';
import { Ledger } from './ledger.ts';
import { LiveService, SETTLE_MS, type HoldAnswerer } from './live-service.ts';
import type { TreeItem } from './model.ts';
import { Random } from './random.ts';
import { rootPhaseLive } from './root-phase.ts';
import { SeedSetup, type SeedDisturbances } from './seed-setup.ts';
import type { SoakResult } from './soak-run.ts';
import type { SoakScenario } from './soak-scenario.ts';
import { RESUMABLE_FOR_SEEDS } from './upload-change.ts';
import { checkAtQuiet, excludeLive, includeLive, SeedChanges } from './soak-selection.ts';

/** The user meant their rm -rf: asked about it (or about the folder it emptied), they confirm. */
const CONFIRM_DELETES: HoldAnswerer = (hold) =>
  hold.reason === 'mass-delete' || hold.reason === 'emptied-root' ? 'confirm' : undefined;

export async function runLiveScenario(
  scenario: SoakScenario,
  soak: SeedDisturbances,
  device: TestDevice,
): Promise<SoakResult> {
  const setup = new SeedSetup(scenario, soak, device, 'soak-live');
  const { local, upload, bulk } = setup;
  const service = new LiveService({
    device,
    work: setup.work,
    localRoot: local.root,
    remoteFolder: setup.remoteFolder,
    env: setup.env,
    caseInsensitive: scenario.caseInsensitive,
    ...(upload?.plan.resumable === true ? { resumable: RESUMABLE_FOR_SEEDS } : {}),
    ...(upload === undefined ? {} : { tap: upload.tap }),
    ...(setup.world === undefined ? {} : { selection: setup.world.store, expected: setup.world.expected }),
    ...setup.engineVersions,
  });
  if (setup.versionsOff)
    service.log.push({ level: 'info', message: '[harness] versions off: deletes to the trash' });
  const lastIssues = (): readonly PassIssue[] => {
    const last = service.seen.at(-1)?.report;
    return last === undefined || last instanceof Error ? [] : last.issues;
  };
  setup.indexNow = () => service.index;
  const state = () => setup.state([...service.index.entries()], lastIssues());
  const result = (violations: Violation[], phase: SoakResult['phase'], ledger?: Ledger): SoakResult => ({
    violations,
    phase: violations.length === 0 ? null : phase,
    log: service.log,
    requests: service.engineClient?.requests() ?? [],
    issues: service.seen.flatMap((pass) => (pass.report instanceof Error ? [] : pass.report.issues)),
    crashed: false,
    impossible: ledger?.impossible ?? [],
    passes: service.seen.length,
    uploadChanged: upload?.firedInPass !== undefined,
  });
  let started = false;
  try {
    await setup.connect(device);
    await setup.makeInitialTree();
    const firstLedger = new Ledger(setup.base, setup.synced);
    if (upload?.plan.pass === 'first') upload.arm(firstLedger, 'first');
    const startedAt = Date.now();
    await service.start();
    started = true;
    const first = await service.quiet(startedAt - SETTLE_MS, 'first pass');
    const base: TreeItem[] = setup.base.map((item) =>
      item.path === 'big.bin' && upload !== undefined
        ? { ...item, content: upload.versions.at(-1) ?? '' }
        : item,
    );
    if (first.length === 0) {
      const initial = state();
      first.push(
        ...checkTreesMatch(initial.local, base, ['local', 'the initial tree']),
        ...setup.check(initial, firstLedger, firstLedger.required()),
      );
    }
    if (first.length > 0) return result(first, 'first pass');

    const ledger = new Ledger(base, setup.synced);
    if (setup.root !== undefined) {
      const changed = await rootPhaseLive(setup.root, setup.place, setup.remote, service);
      for (const content of changed.written) ledger.note(content);
      const aside = setup.root.keptAside();
      if (aside !== undefined && setup.root.plan.answer === 'restore') setup.place.offTree.push(aside);
      if (changed.violations.length > 0) return result(changed.violations, 'folder changed', ledger);
    }
    // Issue 29: the exclusions, set as the window sets them.
    const excluded = await excludeLive(setup, service, ledger, state);
    if (excluded.length > 0) return result(excluded, 'exclusion', ledger);
    // Both users at work while the service runs: their changes interleaved, a few milliseconds apart.
    if (upload?.plan.pass === 'changes') upload.arm(ledger, 'changes');
    const random = new Random(scenario.seed ^ 0x11fe);
    const changes = new SeedChanges(scenario, setup, ledger);
    const queue = { local: [...changes.local], remote: [...changes.remote] };
    let bulkDone = bulk === undefined;
    while (queue.local.length > 0 || queue.remote.length > 0 || !bulkDone) {
      const localDone = changes.local.length - queue.local.length;
      if (bulk !== undefined && !bulkDone && (localDone >= bulk.plan.after || queue.local.length === 0)) {
        bulkDone = true;
        await bulk.run(ledger, local, setup.remote, service);
        continue;
      }
      const side =
        queue.remote.length === 0 || (queue.local.length > 0 && random.chance(0.5)) ? 'local' : 'remote';
      const change = queue[side].shift();
      if (change === undefined) continue;
      if (side === 'local') changes.applyLocal(change);
      else await service.relay.exclusive(() => changes.applyRemote(change));
      await sleep(random.int(0, 60));
    }
    const violations = bulk === undefined ? [] : await bulk.check(service, setup.remote, setup.base.length);
    if (violations.length > 0) return result(violations, 'changes', ledger);
    violations.push(
      ...(await service.quiet(Date.now(), 'changes', bulk === undefined ? undefined : CONFIRM_DELETES)),
    );
    if (violations.length === 0)
      violations.push(...checkAtQuiet(setup, state(), ledger, ledger.required(), 'after the changes'));
    violations.push(...changes.violations);
    if (violations.length > 0) return result(violations, 'changes', ledger);
    return result(await includeLive(setup, service, ledger, state), 'inclusion', ledger);
  } finally {
    if (started) await service.stop();
    else await service.close();
    await setup.cleanup();
  }
}
