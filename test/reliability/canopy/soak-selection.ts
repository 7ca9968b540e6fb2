// Issue 29 in a soak seed: the exclusions (their pass may crash), both users' changes in and around them, folders included again, with syncOnce or live.
import type { PassReport } from '../../../app/sync/pass-report.ts';
import type { PassState, RequiredContent, Violation } from './invariants.ts';
import type { Ledger } from './ledger.ts';
import type { LiveService } from './live-service.ts';
import type { Change } from './model.ts';
import type { SeedSetup } from './seed-setup.ts';
import type { EngineHosts } from './soak-host.ts';
import type { CrashPlan, SoakScenario } from './soak-scenario.ts';

/** Both users' changes of a seed, the scenario's and (with a selection) the plan's after them. */
export class SeedChanges {
  readonly local: readonly Change[];
  readonly remote: readonly Change[];
  /** (a) found before a change of the other client: the engine had changed an excluded folder. */
  readonly violations: Violation[] = [];
  readonly #setup: SeedSetup;
  readonly #ledger: Ledger;

  constructor(scenario: SoakScenario, setup: SeedSetup, ledger: Ledger) {
    this.#setup = setup;
    this.#ledger = ledger;
    this.local = [...scenario.local, ...(setup.world?.plan.local ?? [])];
    this.remote = [...scenario.remote, ...(setup.world?.plan.remote ?? [])];
  }

  applyLocal(change: Change): void {
    const world = this.#setup.world;
    if (world === undefined) this.#ledger.local(this.#setup.local, change);
    else world.local(this.#ledger, this.#setup.local, change);
  }

  /** Made with the device to the other client (the engine's requests answered, none going). */
  async applyRemote(change: Change): Promise<void> {
    const { world, remote } = this.#setup;
    if (world === undefined) await this.#ledger.remote(remote, change);
    else this.violations.push(...(await world.remote(this.#ledger, remote, change)));
  }
}

/** The checks at quiet; with a selection, once the world knows where the excluded folders are now. */
export function checkAtQuiet(
  setup: SeedSetup,
  state: PassState,
  ledger: Ledger,
  required: readonly RequiredContent[],
  phase: string,
): Violation[] {
  setup.world?.settled(setup.remote, state.local);
  return setup.check(state, ledger, required, phase);
}

/** syncOnce: the local changes just before, the exclusions, their pass (which may crash), quiet, the checks. */
export async function excludeOnce(
  setup: SeedSetup,
  hosts: EngineHosts,
  ledger: Ledger,
  crash: CrashPlan | null,
  pass: () => Promise<PassReport | Error>,
  state: () => PassState,
): Promise<Violation[]> {
  const world = setup.world;
  if (world === undefined) return [];
  world.exclude(ledger, setup.local, setup.remote);
  hosts.armCrash(crash);
  await pass();
  hosts.host.index.disarm();
  hosts.host.relay.arm({});
  const violations = await hosts.untilQuiet('exclusion', pass);
  if (violations.length === 0)
    violations.push(...checkAtQuiet(setup, state(), ledger, ledger.required(), 'after the exclusions'));
  world.observe(setup.remote);
  return violations;
}

/** syncOnce: the plan's folders included again, quiet, the checks. */
export async function includeOnce(
  setup: SeedSetup,
  hosts: EngineHosts,
  ledger: Ledger,
  pass: () => Promise<PassReport | Error>,
  state: () => PassState,
): Promise<Violation[]> {
  const world = setup.world;
  if (world === undefined || world.plan.include.length === 0) return [];
  world.include(setup.local);
  const violations = await hosts.untilQuiet('inclusion', pass);
  if (violations.length === 0)
    violations.push(...checkAtQuiet(setup, state(), ledger, ledger.required(), 'after the inclusions'));
  return violations;
}

/**
 * Live: the exclusions as the window sets them (the service asked for a pass at once), quiet, the
 * checks. The local changes just before may be synced by a pass the watcher starts first: what they
 * write in the folder then is no change of the engine's own.
 */
export async function excludeLive(
  setup: SeedSetup,
  service: LiveService,
  ledger: Ledger,
  state: () => PassState,
): Promise<Violation[]> {
  const world = setup.world;
  if (world === undefined) return [];
  const since = Date.now();
  world.exclude(ledger, setup.local, setup.remote, { live: true });
  service.live.syncNow();
  const violations = await service.quiet(since, 'exclusion');
  if (violations.length === 0)
    violations.push(...checkAtQuiet(setup, state(), ledger, ledger.required(), 'after the exclusions'));
  world.observe(setup.remote);
  return violations;
}

/** Live: the plan's folders included again, a pass asked for, quiet, the checks. */
export async function includeLive(
  setup: SeedSetup,
  service: LiveService,
  ledger: Ledger,
  state: () => PassState,
): Promise<Violation[]> {
  const world = setup.world;
  if (world === undefined || world.plan.include.length === 0) return [];
  const since = Date.now();
  world.include(setup.local);
  service.live.syncNow();
  const violations = await service.quiet(since, 'inclusion');
  if (violations.length === 0)
    violations.push(...checkAtQuiet(setup, state(), ledger, ledger.required(), 'after the inclusions'));
  return violations;
}
