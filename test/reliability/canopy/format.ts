// Prints a scenario as steps a person can follow, and a failing run as a reproduction.
import { assertNever } from '../../../common/errors.ts';
import { showPath, type Violation } from './invariants.ts';
import type { Change } from './model.ts';
import { DEFAULT_GENERATOR, type GeneratorOptions, type Scenario } from './scenario.ts';
import { describeStep, type OnDemandPlan } from './on-demand-plan.ts';
import type { SelectionPlan } from './selection-plan.ts';

function showContent(content: string): string {
  return JSON.stringify(content.length > 30 ? `${content.slice(0, 30)}...` : content);
}

export function describeChange(change: Change): string {
  switch (change.op) {
    case 'create-file':
      return `create file ${showPath(change.path)} with ${showContent(change.content)}`;
    case 'create-folder':
      return `create folder ${showPath(change.path)}`;
    case 'edit':
      return `${change.atomic ? 'save (new file renamed over)' : 'edit'} ${showPath(change.path)} to ${showContent(change.content)}`;
    case 'delete':
      return `delete ${showPath(change.path)}`;
    case 'move':
      return `move ${showPath(change.from)} to ${showPath(change.to)}`;
    case 'file-to-folder':
      return `replace file ${showPath(change.path)} with an empty folder`;
    case 'folder-to-file':
      return `replace folder ${showPath(change.path)} with a file ${showContent(change.content)}`;
    default:
      return assertNever(change, 'change');
  }
}

export function describeScenario(scenario: Scenario): string {
  const lines = [
    `seed ${scenario.seed}: local volume ${scenario.caseInsensitive ? 'case-insensitive' : 'case-sensitive'}, initial tree made ${scenario.initialSide === 'local' ? 'locally' : 'on the device'}`,
    `1. make the initial tree ${scenario.initialSide === 'local' ? 'locally' : 'on the device'} and run a pass:`,
    ...scenario.initial.map(
      (item) =>
        `     ${showPath(item.path)}${item.kind === 'folder' ? '/' : ` ${showContent(item.content ?? '')}`}`,
    ),
    ...selectionBefore(scenario.selection),
    ...onDemandSteps(scenario.onDemand, 'before'),
    `2. local changes:${scenario.local.length === 0 ? ' none' : ''}`,
    ...scenario.local.map((change) => `     ${describeChange(change)}`),
    ...onDemandSteps(scenario.onDemand, 'after'),
    ...changesAround(scenario.selection?.local),
    `3. remote changes (another client):${scenario.remote.length === 0 ? ' none' : ''}`,
    ...scenario.remote.map((change) => `     ${describeChange(change)}`),
    ...changesAround(scenario.selection?.remote),
    '4. run one pass',
    ...(scenario.selection === undefined || scenario.selection.include.length === 0
      ? []
      : [`5. include again ${scenario.selection.include.map(showPath).join(', ')} and run a pass`]),
  ];
  return lines.join('\n');
}

/** Issue 29: the local changes just before the exclusions, and the exclusions, after the first pass. */
function selectionBefore(plan: SelectionPlan | undefined): string[] {
  if (plan === undefined) return [];
  return [
    `1b. selective sync:${plan.before.length === 0 ? '' : ' local changes,'} then exclude, then run a pass:`,
    ...plan.before.map((change) => `     ${describeChange(change)}`),
    ...plan.exclude.map(
      (step) =>
        `     exclude ${showPath(step.path)}, ${step.localCopy === 'keep' ? 'keeping' : 'removing'} the local copy`,
    ),
  ];
}

/** Issue 30: the pins (before the first pass), and the user's steps on placeholders after it or the local changes. */
function onDemandSteps(plan: OnDemandPlan | undefined, when: 'before' | 'after'): string[] {
  if (plan === undefined) return [];
  const steps = plan[when].map((step) => `     ${describeStep(step)}`);
  if (when === 'after') return steps.length === 0 ? [] : ['   then, on the on-demand pair:', ...steps];
  return [
    `1c. an on-demand pair${plan.pinned.length === 0 ? '' : `, pinned from the start: ${plan.pinned.map(showPath).join(', ')}`}; after the first pass:${steps.length === 0 ? ' nothing' : ''}`,
    ...steps,
  ];
}

function changesAround(changes: readonly Change[] | undefined): string[] {
  if (changes === undefined || changes.length === 0) return [];
  return [
    '   then, in and around the excluded folders:',
    ...changes.map((change) => `     ${describeChange(change)}`),
  ];
}

export function describeViolations(violations: readonly Violation[]): string {
  return violations.map((violation) => `  [${violation.code}] ${violation.message}`).join('\n');
}

/** The command that runs one seed again (with the same tree sizes) and shrinks it. */
export function reproduceCommand(seed: number, options: GeneratorOptions = DEFAULT_GENERATOR): string {
  const items =
    options.maxInitialItems === DEFAULT_GENERATOR.maxInitialItems
      ? ''
      : ` --items ${options.maxInitialItems}`;
  const changes =
    options.maxChangesPerSide === DEFAULT_GENERATOR.maxChangesPerSide
      ? ''
      : ` --changes ${options.maxChangesPerSide}`;
  const onDemand =
    options.onDemandRate === undefined || options.onDemandRate === 0
      ? ''
      : `MCH_ON_DEMAND_RATE=${options.onDemandRate} `;
  return `${onDemand}npm run sync-random -- --seed ${seed}${items}${changes}`;
}
