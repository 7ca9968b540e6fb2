// Files on demand in the randomized model (issue 30): what a seed's user does to an on-demand pair's placeholders and pins; drawn from a stream of its own.
import { applyChange, exactKey, foldedKey, isWithin, treeOf, type Tree, type TreeItem } from './model.ts';
import { Random } from './random.ts';
import type { Scenario } from './scenario.ts';

/**
 * One thing the user of an on-demand pair does through the mount or the window, by the local path:
 * - `hydrate`: opens a placeholder (the real Hydrator fills it in place);
 * - `free`: frees a whole synced file (a placeholder again, of the same size and time);
 * - `overwrite`: writes a placeholder whole (`echo x > file`: truncated, unmarked, written);
 * - `pin` / `unpin`: keeps the item (everything below a folder) on this computer, or stops keeping it.
 * A step that does not fit what is there when it comes (not a placeholder, not synced...) is left out.
 */
export type OnDemandStep =
  | { op: 'hydrate'; path: string }
  | { op: 'free'; path: string }
  | { op: 'overwrite'; path: string; content: string }
  | { op: 'pin'; path: string }
  | { op: 'unpin'; path: string };

/**
 * A seed's on-demand pair, plain data like the rest of the scenario: `pinned` paths of the initial tree
 * (kept before the first pass when the device has them, else right after it), `before` steps after the
 * first pass, `after` steps once the local changes are made (with the last of them when those are made
 * while a pass runs).
 */
export interface OnDemandPlan {
  pinned: string[];
  before: OnDemandStep[];
  after: OnDemandStep[];
}

type BaseScenario = Pick<Scenario, 'seed' | 'caseInsensitive' | 'initialSide' | 'initial' | 'local'>;

/** The seed's plan at `rate`, or undefined. Its own stream: the trees and changes stay the seed's. */
export function drawOnDemand(scenario: BaseScenario, rate: number): OnDemandPlan | undefined {
  const random = new Random(scenario.seed ^ 0x30de3a4d);
  if (!random.chance(rate)) return undefined;
  let count = 0;
  const content = (notLength: number | undefined): string => {
    count += 1;
    const filler = 'abcdefghijklmnopqrstuvwxyz'.repeat(2).slice(0, random.int(0, 40));
    const text = `${scenario.seed}:o${count} ${filler}\n`;
    return text.length === notLength ? `${text}.` : text;
  };
  const pinned: string[] = [];
  for (const item of scenario.initial) if (pinned.length < 2 && random.chance(0.15)) pinned.push(item.path);
  const kept = new Set(pinned);
  // What is likely a placeholder when a step comes: device files not kept, and files freed since.
  const likely = new Set(
    scenario.initialSide === 'remote'
      ? scenario.initial
          .filter((item) => item.kind === 'file' && !pinned.some((path) => isWithin(item.path, path)))
          .map((item) => item.path)
      : [],
  );
  const steps = (tree: Tree, wanted: number): OnDemandStep[] => {
    const made: OnDemandStep[] = [];
    const items = [...tree.values()];
    for (let index = 0; index < wanted && items.length > 0; index++) {
      const files = items.filter((item) => item.kind === 'file');
      const placeholders = files.filter((item) => likely.has(item.path)).length;
      const whole = files.length - placeholders;
      const op = random.weighted({
        hydrate: placeholders > 0 ? 4 : 0,
        overwrite: placeholders > 0 ? 2 : 0,
        free: whole > 0 ? 4 : 0,
        pin: 2,
        unpin: kept.size > 0 ? 2 : 0,
      });
      if (op === 'pin' || op === 'unpin') {
        const path = op === 'unpin' ? random.pick([...kept]) : random.pick(items).path;
        if (op === 'pin') kept.add(path);
        else kept.delete(path);
        made.push({ op, path });
        continue;
      }
      const fits = files.filter((item) => likely.has(item.path) === (op !== 'free'));
      const file: TreeItem = random.pick(fits);
      if (op === 'free') likely.add(file.path);
      else likely.delete(file.path);
      made.push(
        op === 'overwrite'
          ? { op, path: file.path, content: content(file.content?.length) }
          : { op, path: file.path },
      );
    }
    return made;
  };
  const base = treeOf(scenario.initial);
  const before = steps(base, random.int(0, 4));
  // The local tree once the scenario's local changes are made: what the `after` steps name.
  const local = treeOf(scenario.initial);
  const key = scenario.caseInsensitive ? foldedKey : exactKey;
  for (const change of scenario.local) applyChange(local, change, key);
  const after = steps(local, random.int(0, 3));
  return { pinned, before, after };
}

/** One step in words, for a story. */
export function describeStep(step: OnDemandStep): string {
  switch (step.op) {
    case 'hydrate':
      return `open (hydrate) ${JSON.stringify(step.path)}`;
    case 'free':
      return `free ${JSON.stringify(step.path)} (a placeholder again)`;
    case 'overwrite':
      return `overwrite ${JSON.stringify(step.path)} whole through the mount with ${JSON.stringify(step.content.slice(0, 30))}`;
    case 'pin':
      return `pin ${JSON.stringify(step.path)} (keep on this computer)`;
    case 'unpin':
      return `unpin ${JSON.stringify(step.path)}`;
  }
}
