// Replays a scenario on the model: each side's final tree and what its user did to content.
import {
  applyChange,
  foldedKey,
  itemsOf,
  type Change,
  type ChangeEffect,
  type Side,
  type Tree,
} from './model.ts';
import { nameKeyOf, type Scenario } from './scenario.ts';

/** What replaying a scenario on the model gives: each side's final tree and what its user did to content. */
export interface SideOutcome {
  tree: Tree;
  applied: Change[];
  removed: Set<string>;
  overwritten: Set<string>;
  written: Set<string>;
  /** What each edit replaced, old content → new: whether a version was followed by another that stands. */
  replacedBy: Map<string, string>;
}

export function simulate(scenario: Scenario): { base: Tree; local: SideOutcome; remote: SideOutcome } {
  const base: Tree = new Map();
  for (const item of scenario.initial) {
    const change: Change =
      item.kind === 'file'
        ? { op: 'create-file', path: item.path, content: item.content ?? '' }
        : { op: 'create-folder', path: item.path };
    applyChange(base, change, foldedKey);
  }
  const run = (side: Side): SideOutcome => {
    const outcome: SideOutcome = {
      tree: new Map(itemsOf(base).map((item) => [item.path, { ...item }])),
      applied: [],
      removed: new Set(),
      overwritten: new Set(),
      written: new Set(),
      replacedBy: new Map(),
    };
    for (const change of scenario[side]) {
      const effect: ChangeEffect | null = applyChange(outcome.tree, change, nameKeyOf(scenario, side));
      if (effect === null) continue;
      outcome.applied.push(change);
      for (const content of effect.removed) outcome.removed.add(content);
      for (const content of effect.overwritten) outcome.overwritten.add(content);
      for (const content of effect.written) outcome.written.add(content);
      if (change.op === 'edit')
        for (const old of effect.overwritten) outcome.replacedBy.set(old, change.content);
    }
    return outcome;
  };
  return { base, local: run('local'), remote: run('remote') };
}

/** The same scenario without what no longer applies (after the shrinker removed something it needed). */
export function normalizeScenario(scenario: Scenario): Scenario {
  const { base, local, remote } = simulate(scenario);
  return { ...scenario, initial: itemsOf(base), local: local.applied, remote: remote.applied };
}
