// Soak scenarios (issue 18): a randomized scenario plus the disturbances of its seed: crash, faults, changes mid-pass, live.
import type { WireCrash } from './wire.ts';
import { Random } from './random.ts';
import {
  DEFAULT_ISSUE26_RATES,
  describeIssue26,
  drawIssue26,
  type Issue26Disturbances,
  type Issue26Rates,
} from './soak-plans.ts';
import type { Change } from './model.ts';
import { DEFAULT_GENERATOR, generateScenario, type GeneratorOptions, type Scenario } from './scenario.ts';

/** Where the engine's process dies. `at` counts requests through the relay, or index transactions. */
export interface CrashPlan {
  /** The first pass (bringing the initial tree over), the pass after the changes, or (issue 29) the exclusions'. */
  pass: 'first' | 'changes' | 'exclusion';
  how: WireCrash | 'in-transaction';
  at: number;
}

/** The device's own fault injection (`--faults`) for the engine's requests of the pass after the changes. */
export interface FaultPlan {
  error: number;
  reset: number;
  lost: number;
  /** Milliseconds, 0 for none. */
  latencyMs: number;
  seed: number;
}

/**
 * The changes from index `localFrom` / `remoteFrom` on are made while request `at` of the pass is held:
 * before it goes to the device, or after the device answered and before the engine hears; `transfer`:
 * while the at-th upload or download is in flight (answered by the device, not yet by the engine).
 */
export interface DuringPlan {
  localFrom: number;
  remoteFrom: number;
  at: number;
  where: 'before' | 'in-flight' | 'transfer';
}

/**
 * The disturbances of issue 26 (soak-plans.ts) are optional: the JSON of reproductions kept before
 * them replays as it was.
 */
export interface Disturbances extends Partial<Issue26Disturbances> {
  crash: CrashPlan | null;
  faults: FaultPlan | null;
  during: DuringPlan | null;
  /** Through the live service (watcher, debounce, polls) instead of syncOnce; no crash or faults then. */
  live: boolean;
  /** Issue 29: the process dies in the pass that applies the exclusions (a seed with a selection plan). */
  selectionCrash?: CrashPlan | null;
  /** Issue 31: the pair settles each new conflict by this policy (absent: `ask`, both copies kept). */
  conflicts?: ConflictPolicy;
}

/** A versions policy's answer to a new conflict other than `ask` (app/sync/engine-options.ts). */
export type ConflictPolicy = 'newer' | 'this' | 'device';

export interface SoakScenario extends Scenario {
  soak: Disturbances;
}

/** How often each disturbance comes (0 to 1). */
export interface SoakRates extends Issue26Rates {
  crash: number;
  fault: number;
  during: number;
  live: number;
  /** Issue 29: seeds with a selective sync plan (selection-plan.ts); 2 in 5 of them crash in its pass. */
  selection: number;
  /**
   * Issue 30: seeds whose local client is an on-demand pair (on-demand-plan.ts): run with syncOnce, no
   * selection, no live service, bulk delete or changed folder (default 0: the seeds as before).
   */
  onDemand: number;
  /** Issue 31: seeds whose pair settles new conflicts by a policy, the loser kept as a version (default 0). */
  conflict: number;
}

export const DEFAULT_SOAK_RATES: SoakRates = {
  crash: 0.35,
  fault: 0.3,
  during: 0.35,
  live: 0.08,
  selection: 0.25,
  onDemand: 0,
  conflict: 0,
  ...DEFAULT_ISSUE26_RATES,
};

/**
 * Smaller trees than sync-random's defaults (6 items, 3 changes a side): a soak seed runs several
 * passes, and the disturbances, not the tree size, are what it is after.
 */
export const SOAK_GENERATOR: GeneratorOptions = {
  ...DEFAULT_GENERATOR,
  maxInitialItems: 6,
  maxChangesPerSide: 3,
};

/** The seed's scenario (the same trees and changes as `generateScenario`) and its disturbances. */
export function generateSoakScenario(
  seed: number,
  options: GeneratorOptions = SOAK_GENERATOR,
  rates: SoakRates = DEFAULT_SOAK_RATES,
): SoakScenario {
  const scenario = generateScenario(seed, {
    ...options,
    selectionRate: rates.selection,
    onDemandRate: rates.onDemand,
  });
  // A stream of its own, so the trees are those of the same seed without disturbances.
  const random = new Random(seed ^ 0x5eed_18);
  const drawn = drawIssue26(scenario, rates, random.chance(rates.live));
  // Issue 30: an on-demand pair's seed runs with syncOnce in a plain folder (the draws stay as they were).
  const issue26 =
    scenario.onDemand === undefined ? drawn : { ...drawn, live: false, bulk: null, root: null, trash: null };
  // A bulk-delete seed is a live seed: the draws below stay where they were, and are dropped for it.
  const live = issue26.live;
  const crashRoll = random.chance(rates.crash);
  const faultRoll = random.chance(rates.fault);
  const duringRoll = random.chance(rates.during);
  const crash: CrashPlan | null =
    live || !crashRoll
      ? null
      : {
          pass: random.chance(0.3) ? 'first' : 'changes',
          how: random.weighted({
            'before-request': 3,
            'after-answer': 3,
            'mid-body': 2,
            'in-transaction': 2,
          }),
          // A pass of these small trees makes some 3 to 15 requests and index transactions.
          at: random.int(1, random.chance(0.5) ? 4 : 12),
        };
  const rate = 0.03 + random.next() * 0.12;
  const faults: FaultPlan | null =
    live || !faultRoll
      ? null
      : {
          error: round(rate * 0.5),
          reset: round(rate * 0.25),
          lost: round(rate * 0.25),
          latencyMs: random.chance(0.3) ? random.int(1, 5) : 0,
          seed: random.int(1, 1_000_000),
        };
  // A live seed's changes are all made while the service runs, a few milliseconds apart.
  const during: DuringPlan | null =
    live || !duringRoll
      ? null
      : {
          localFrom: random.int(0, scenario.local.length),
          remoteFrom: random.int(0, scenario.remote.length),
          at: random.int(1, 8),
          where: random.weighted({ before: 2, 'in-flight': 2, transfer: 1 }),
        };
  const { bulk, root, trash, upload, second } = issue26;
  const soak: Disturbances = { crash, faults, during, live, bulk, root, trash, upload, second };
  // Issue 29, a stream of its own again: the crash in the exclusions' pass of a seed with a plan.
  const selecting = new Random(seed ^ 0x29c4a5);
  if (scenario.selection !== undefined && !live && selecting.chance(0.4)) {
    soak.selectionCrash = {
      pass: 'exclusion',
      how: selecting.weighted({ 'before-request': 3, 'after-answer': 3, 'mid-body': 2, 'in-transaction': 3 }),
      at: selecting.int(1, 6),
    };
  }
  // Issue 31, a stream of its own: the pair's conflict policy (absent for `ask`: the JSON as before),
  // and a conflict for it to settle.
  const settling = new Random(seed ^ 0x31c0f1);
  if (!settling.chance(rates.conflict)) return { ...scenario, soak };
  soak.conflicts = settling.weighted({ newer: 1, this: 1, device: 1 });
  return { ...withConflict(scenario, settling), soak };
}

/**
 * Issue 31: a policy seed's conflict, since few seeds make one: a file of the initial tree edited on
 * both sides before their other changes, each side's bytes of a size of their own.
 */
function withConflict(scenario: Scenario, random: Random): Scenario {
  const files = scenario.initial.filter((item) => item.kind === 'file');
  if (files.length === 0) return scenario;
  const file = random.pick(files);
  const taken = [file.content?.length ?? 0];
  const edit = (tag: string): Change => {
    let content = `${scenario.seed}:${tag} ${'x'.repeat(random.int(0, 20))}\n`;
    while (taken.includes(content.length)) content = `${content.slice(0, -1)}x\n`;
    taken.push(content.length);
    return { op: 'edit', path: file.path, content };
  };
  return { ...scenario, local: [edit('c1'), ...scenario.local], remote: [edit('c2'), ...scenario.remote] };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** One line saying what disturbs the seed. */
export function describeDisturbances(soak: Disturbances): string {
  const parts: string[] = [];
  if (soak.live) parts.push('live service');
  for (const crash of [soak.crash, soak.selectionCrash])
    if (crash) parts.push(`crash in the ${crash.pass} pass ${crash.how} #${crash.at}`);
  if (soak.faults) {
    const f = soak.faults;
    parts.push(
      `faults error=${f.error},reset=${f.reset},lost=${f.lost}${f.latencyMs > 0 ? `,latency=0-${f.latencyMs}` : ''} --seed ${f.seed}`,
    );
  }
  if (soak.during) {
    const d = soak.during;
    parts.push(
      `local changes from #${d.localFrom + 1} and remote from #${d.remoteFrom + 1} made ${d.where === 'before' ? 'before request' : d.where === 'in-flight' ? 'while the device answers request' : 'during transfer'} ${d.at} of the pass`,
    );
  }
  parts.push(...describeIssue26(soak));
  if (soak.conflicts) parts.push(`conflicts settled by the policy ${soak.conflicts}`);
  return parts.length === 0 ? 'no disturbance' : parts.join('; ');
}
