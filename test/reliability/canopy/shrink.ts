// Shrinks a failing scenario (delta debugging): drops changes and initial items while it still fails.
import type { Change } from './model.ts';
import { normalizeScenario } from './replay.ts';
import type { Scenario } from './scenario.ts';
import type { OnDemandPlan } from './on-demand-plan.ts';
import type { SelectionPlan } from './selection-plan.ts';

export interface ShrinkOptions {
  /** Stop after this many tries of `stillFails` (each is a real sync run). */
  maxRuns?: number;
  /** Called after each smaller failing scenario is found. */
  onSmaller?: (scenario: Scenario) => void;
}

export interface ShrinkResult {
  scenario: Scenario;
  /** Tries of `stillFails`. */
  runs: number;
}

type ListName = 'local' | 'remote' | 'initial' | SelectionList | OnDemandList;
/** Issue 30's lists (on-demand-plan.ts). */
type OnDemandList = 'pinned' | 'on-demand-before' | 'on-demand-after';

const ON_DEMAND_LISTS = {
  pinned: 'pinned',
  'on-demand-before': 'before',
  'on-demand-after': 'after',
} as const satisfies Record<OnDemandList, keyof OnDemandPlan>;
/** Issue 29's lists (selection-plan.ts): they shrink like the scenario's own. */
type SelectionList = 'exclude' | 'before' | 'selection-local' | 'selection-remote' | 'include';

const SELECTION_LISTS = {
  exclude: 'exclude',
  before: 'before',
  'selection-local': 'local',
  'selection-remote': 'remote',
  include: 'include',
} as const satisfies Record<SelectionList, keyof SelectionPlan>;

function listOf(scenario: Scenario, list: ListName): readonly unknown[] {
  if (list === 'local' || list === 'remote' || list === 'initial') return scenario[list];
  if (list === 'pinned' || list === 'on-demand-before' || list === 'on-demand-after')
    return scenario.onDemand?.[ON_DEMAND_LISTS[list]] ?? [];
  return scenario.selection?.[SELECTION_LISTS[list]] ?? [];
}

function withList(scenario: Scenario, list: ListName, entries: unknown[]): Scenario {
  if (list === 'local' || list === 'remote' || list === 'initial') return { ...scenario, [list]: entries };
  if (list === 'pinned' || list === 'on-demand-before' || list === 'on-demand-after') {
    if (scenario.onDemand === undefined) return scenario;
    return { ...scenario, onDemand: { ...scenario.onDemand, [ON_DEMAND_LISTS[list]]: entries } };
  }
  if (scenario.selection === undefined) return scenario;
  return { ...scenario, selection: { ...scenario.selection, [SELECTION_LISTS[list]]: entries } };
}

export function scenarioSize(scenario: Scenario): number {
  const plan = scenario.selection;
  const selection =
    plan === undefined
      ? 0
      : plan.exclude.length +
        plan.before.length +
        plan.local.length +
        plan.remote.length +
        plan.include.length;
  const onDemand = scenario.onDemand;
  const steps =
    onDemand === undefined ? 0 : onDemand.pinned.length + onDemand.before.length + onDemand.after.length;
  return scenario.initial.length + scenario.local.length + scenario.remote.length + selection + steps;
}

/**
 * Greedy delta debugging: for each list (local changes, remote changes, initial items, and issue 29's
 * lists of a selection plan), tries to drop
 * halves, then quarters... down to single entries, keeping each drop after which the scenario still
 * fails; then tries plainer settings (case-sensitive, in-place saves). Repeats until nothing more can
 * go. Whatever a drop leaves inapplicable (a child of a dropped folder, an edit of a file never made)
 * is dropped with it, so the result only holds steps that happen (a selection plan's steps are not
 * replayed on the model: one the run finds impossible goes when the shrinker tries without it).
 */
export async function shrinkScenario(
  failing: Scenario,
  stillFails: (scenario: Scenario) => Promise<boolean>,
  options: ShrinkOptions = {},
): Promise<ShrinkResult> {
  const maxRuns = options.maxRuns ?? 200;
  let current = normalizeScenario(failing);
  let runs = 0;
  const accept = async (candidate: Scenario): Promise<boolean> => {
    if (runs >= maxRuns) return false;
    runs += 1;
    if (!(await stillFails(candidate))) return false;
    current = candidate;
    options.onSmaller?.(candidate);
    return true;
  };
  for (let progress = true; progress && runs < maxRuns;) {
    progress = false;
    for (const list of [
      'local',
      'remote',
      'initial',
      'selection-local',
      'selection-remote',
      'before',
      'include',
      'exclude',
      'on-demand-before',
      'on-demand-after',
      'pinned',
    ] as const) {
      if (await shrinkList(list, () => current, accept)) progress = true;
    }
    for (const plainer of plainerVariants(current)) {
      if (await accept(plainer)) progress = true;
    }
  }
  return { scenario: current, runs };
}

async function shrinkList(
  list: ListName,
  current: () => Scenario,
  accept: (candidate: Scenario) => Promise<boolean>,
): Promise<boolean> {
  let progress = false;
  for (let chunk = Math.ceil(listOf(current(), list).length / 2); chunk >= 1; chunk = Math.floor(chunk / 2)) {
    for (let start = 0; start < listOf(current(), list).length;) {
      const before = current();
      const entries = listOf(before, list);
      const candidate = normalizeScenario(
        withList(before, list, [...entries.slice(0, start), ...entries.slice(start + chunk)]),
      );
      if (scenarioSize(candidate) < scenarioSize(before) && (await accept(candidate))) {
        progress = true;
      } else {
        start += chunk;
      }
    }
  }
  return progress;
}

/** The same scenario with one setting made plainer, for each setting that can be. */
function plainerVariants(scenario: Scenario): Scenario[] {
  const variants: Scenario[] = [];
  if (scenario.caseInsensitive) variants.push(normalizeScenario({ ...scenario, caseInsensitive: false }));
  const atomic = scenario.local.findIndex((change) => change.op === 'edit' && change.atomic === true);
  if (atomic >= 0) {
    const local = scenario.local.map((change, index): Change => {
      if (index !== atomic || change.op !== 'edit') return change;
      return { op: 'edit', path: change.path, content: change.content };
    });
    variants.push({ ...scenario, local });
  }
  return variants.filter((variant) => scenarioSize(variant) === scenarioSize(scenario));
}
