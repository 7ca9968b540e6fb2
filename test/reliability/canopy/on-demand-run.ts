// A randomized run of an on-demand pair (issue 30): the first pass, the user's steps on placeholders and pins, both sides' changes, a pass, the checks.
import type { IndexStore } from '../../../app/index/index-store.ts';
import type { PassReport } from '../../../app/sync/pass-report.ts';
import type { RemoteSide, LocalSide } from './apply.ts';
import { checkState, checkTreesMatch, type PassState, type Violation } from './invariants.ts';
import { Ledger } from './ledger.ts';
import type { OnDemandWorld } from './on-demand-world.ts';
import { checkReport, checkStable } from './report-checks.ts';
import type { Scenario } from './scenario.ts';
import { checkNoDuplicatesIn, checkNothingTorn } from './soak-invariants.ts';

export type OnDemandPhase = 'first pass' | 'changes';

export interface OnDemandRun {
  scenario: Scenario;
  world: OnDemandWorld;
  local: LocalSide;
  remote: RemoteSide;
  pass: () => Promise<PassReport | Error>;
  /** The state as the checks read it (the world's view of it). */
  state: (report: PassReport) => Promise<PassState>;
  /** The engine's index: where the ledger finds the synced copy of a device item. */
  index: () => IndexStore;
}

/**
 * With the initial tree made: the pins the device can name, the first pass, the checks; the plan's
 * `before` steps, the local changes, its `after` steps, the remote changes, a pass, the checks, and a
 * pass that does nothing. What must survive is the ledger's (read from each change as it is made: a
 * placeholder's version is the device's), not the model's: a placeholder the device deletes goes
 * without a trash.
 */
export async function runOnDemandPhases(
  run: OnDemandRun,
): Promise<{ violations: Violation[]; phase: OnDemandPhase | null }> {
  const { scenario, world, local, remote } = run;
  const ledger = new Ledger(scenario.initial, { local, index: run.index });
  const first = await run.pass();
  let violations = checkReport(first, 'first pass');
  if (first instanceof Error) return { violations, phase: 'first pass' };
  const initial = await run.state(first);
  violations.push(
    ...checkTreesMatch(initial.local, scenario.initial, ['local', 'the initial tree']),
    ...checkAll(world, initial, ledger),
  );
  if (violations.length > 0) return { violations, phase: 'first pass' };
  world.afterFirstPass();

  await world.apply(ledger, world.plan.before);
  for (const change of scenario.local) ledger.local(local, change);
  await world.apply(ledger, world.plan.after);
  for (const change of scenario.remote) await ledger.remote(remote, change);
  const after = await run.pass();
  violations = checkReport(after, 'pass');
  if (after instanceof Error) return { violations, phase: 'changes' };
  violations.push(...checkAll(world, await run.state(after), ledger));
  // Run even after a violation: what the next pass does shows how much a broken state matters.
  const next = await run.pass();
  violations.push(...checkStable(next));
  if (violations.length === 0 && !(next instanceof Error))
    violations.push(...checkAll(world, await run.state(next), ledger));
  return { violations, phase: violations.length > 0 ? 'changes' : null };
}

/** Issue 5's invariants over the view, nothing doubled or torn (the device never got a placeholder's zeros), issue 30's. */
function checkAll(world: OnDemandWorld, state: PassState, ledger: Ledger): Violation[] {
  return [
    ...checkState(state, ledger.required()),
    ...checkNoDuplicatesIn(state, ledger.allowedCopies()),
    ...checkNothingTorn(state, ledger.versions()),
    ...world.check(state),
  ];
}
