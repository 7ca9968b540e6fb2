// A randomized run's selective sync phases (issue 29), after its first pass: exclusions, changes in and around them, folders included again.
import type { IndexStore } from '../../../app/index/index-store.ts';
import type { PassReport } from '../../../app/sync/pass-report.ts';
import type { LocalSide, RemoteSide } from './apply.ts';
import { checkNoContentLost, checkState, type PassState, type Violation } from './invariants.ts';
import { Ledger } from './ledger.ts';
import { checkReport, checkStable } from './report-checks.ts';
import type { Scenario } from './scenario.ts';
import type { SelectionWorld } from './selection-world.ts';

export type SelectionPhase = 'exclusion' | 'changes' | 'inclusion';

export interface SelectionRun {
  scenario: Scenario;
  world: SelectionWorld;
  local: LocalSide;
  remote: RemoteSide;
  pass: () => Promise<PassReport | Error>;
  state: (report: PassReport) => Promise<PassState>;
  /** The engine's index: where the ledger finds the synced copy of a device item. */
  index: () => IndexStore;
}

/**
 * The exclusions (with the local changes just before them), a pass; both sides' changes, the scenario's
 * and the plan's, a pass; the folders to include again, a pass. After each: issue 29's invariants with
 * the usual ones over what is not excluded, and a pass that does nothing. The ledger (read from each
 * change as it is made) says what must survive: a change the exclusion made impossible is left out.
 */
export async function runSelectionPhases(
  run: SelectionRun,
): Promise<{ violations: Violation[]; phase: SelectionPhase | null }> {
  const { scenario, world, local, remote } = run;
  const ledger = new Ledger(scenario.initial, { local, index: run.index });
  world.exclude(ledger, local, remote);
  let violations = await settle(run, ledger, 'exclusion');
  if (violations.length > 0) return { violations, phase: 'exclusion' };
  world.observe(remote);

  for (const change of [...scenario.local, ...world.plan.local]) world.local(ledger, local, change);
  violations = [];
  for (const change of [...scenario.remote, ...world.plan.remote])
    violations.push(...(await world.remote(ledger, remote, change)));
  violations.push(...(await settle(run, ledger, 'changes')));
  if (violations.length > 0) return { violations, phase: 'changes' };

  if (world.plan.include.length === 0) return { violations: [], phase: null };
  world.include(local);
  violations = await settle(run, ledger, 'inclusion');
  return { violations, phase: violations.length > 0 ? 'inclusion' : null };
}

/**
 * One pass and the invariants; a pass that must do nothing, and the invariants again with what it
 * reported (it may read the disk anew and leave out what the first did not).
 */
async function settle(run: SelectionRun, ledger: Ledger, phase: SelectionPhase): Promise<Violation[]> {
  const report = await run.pass();
  const violations = checkReport(report, `${phase} pass`, run.world.expected);
  if (report instanceof Error) return violations;
  violations.push(...(await checkNow(run, ledger, report, `after the ${phase} pass`)));
  // Run even after a violation: what the next pass does shows how much a broken state matters.
  const next = await run.pass();
  violations.push(...checkStable(next, run.world.expected));
  if (violations.length > 0 || next instanceof Error) return violations;
  return checkNow(run, ledger, next, `after the pass after the ${phase} pass`);
}

async function checkNow(
  run: SelectionRun,
  ledger: Ledger,
  report: PassReport,
  when: string,
): Promise<Violation[]> {
  const { world, remote } = run;
  const state = await run.state(report);
  world.settled(remote, state.local);
  return [
    // Trees and index over what is not excluded; content anywhere, kept copies too.
    ...checkState(world.view(state), []),
    ...checkNoContentLost([...ledger.required(), ...world.required(ledger)], state),
    ...world.check(state, remote, ledger, when),
  ];
}
