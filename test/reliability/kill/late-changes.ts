// Changes a user makes while no run is going, between a kill and the next start: new files, and edits or renames of files nobody else touched.
import {
  applyChange,
  exactKey,
  join,
  parentOf,
  type Change,
  type Tree,
  type TreeItem,
} from '../canopy/model.ts';
import type { Random } from '../canopy/random.ts';
import { simulate } from '../canopy/replay.ts';
import type { Scenario } from '../canopy/scenario.ts';
import type { Contents } from './scenario.ts';

function sameAt(tree: Tree, item: TreeItem): boolean {
  const there = tree.get(item.path);
  return there !== undefined && there.kind === item.kind && there.content === item.content;
}

export interface LateChanges {
  local: Change[];
  remote: Change[];
}

/**
 * The model compares each side's changes with the initial tree, as if the two sides changed at once.
 * A killed run may have synced part of the earlier changes by the time these are made, so these stay
 * where that cannot matter: new names, and files whose initial version is still at its place on both
 * sides (each touched by one side only).
 */
export function generateLateChanges(
  scenario: Scenario,
  sides: readonly ('local' | 'remote')[],
  contents: Contents,
  random: Random,
): LateChanges {
  const late: LateChanges = { local: [], remote: [] };
  const { base, local, remote } = simulate(scenario);
  // At its place with its initial version on both sides: no change of either side moved or edited it
  // (or a folder above it), so a killed run cannot have either.
  const stayed = (kind: 'file' | 'folder'): string[] =>
    [...base.values()]
      .filter((item) => item.kind === kind && [local, remote].every((side) => sameAt(side.tree, item)))
      .map((item) => item.path);
  const untouched = stayed('file');
  const folders = ['', ...stayed('folder')];
  const used = new Set<string>();
  const free = (): string | undefined => {
    const left = untouched.filter((path) => !used.has(path));
    if (left.length === 0) return undefined;
    const path = random.pick(left);
    used.add(path);
    return path;
  };
  for (const side of sides) {
    const tree: Tree = new Map(
      [...(side === 'local' ? local : remote).tree].map(([path, item]) => [path, { ...item }]),
    );
    const tag = side === 'local' ? 'L' : 'R';
    const count = random.int(2, 10);
    for (let index = 1; index <= count; index += 1) {
      const what = random.weighted({ create: 3, edit: 3, rename: 2 });
      let change: Change | undefined;
      if (what === 'create') {
        change = {
          op: 'create-file',
          path: join(random.pick(folders), `late-${tag}${index}.txt`),
          content: contents.next(tag),
        };
      } else {
        const path = free();
        if (path === undefined) continue;
        change =
          what === 'edit'
            ? { op: 'edit', path, content: contents.next(tag), atomic: random.chance(0.3) }
            : { op: 'move', from: path, to: join(parentOf(path), `late-renamed-${tag}${index}.txt`) };
      }
      if (applyChange(tree, change, exactKey) !== null) late[side].push(change);
    }
  }
  return late;
}
