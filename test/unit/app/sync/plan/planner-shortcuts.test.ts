// The planner's shortcuts (quiet items and adopted ones left out of its tree) plan what the whole tree plans.
import { describe as group, expect, it } from 'vitest';
import type { ItemKind } from '../../../../../app/model/items.ts';
import type { Plan } from '../../../../../app/sync/plan/planner.ts';
import { itemsToPlan } from '../../../../../app/sync/plan/planner-scope.ts';
import { Random } from '../../../../reliability/canopy/random.ts';
import { describe, ROOT_ID, World } from './planner-world.ts';

type Presence = 'synced' | 'adopted' | 'differs' | 'local' | 'remote';

/** Names that clash when case is ignored, and a name in both Unicode normal forms. */
const NAMES = ['a', 'A', 'b', 'c.txt', 'C.txt', 'd', 'caf\u00e9', 'cafe\u0301'];

/**
 * A random tree: each slot is synced, new on both sides with equal content (adopted), new on both
 * with different content, or new on one side; a slot's children fit what its folder is on each side.
 * Then a few random changes to synced items (edits, moves, deletes, type changes).
 */
function randomWorld(seed: number): World {
  const random = new Random(seed);
  const next = (): number => random.next();
  const pick = <T>(items: readonly T[]): T => random.pick(items);
  const world = new World();
  const slots: Array<{ path: string; presence: Presence; kind: ItemKind }> = [];
  const fill = (parent: string, presence: Presence | 'root', depth: number): void => {
    const used = new Set<string>();
    const count = depth === 0 ? 4 + Math.floor(next() * 4) : Math.floor(next() * 6);
    for (let n = 0; n < count; n++) {
      const name = pick(NAMES);
      // Names equal under NFC never reach the planner both (pass-inputs.ts leaves one out).
      if (used.has(name.normalize('NFC'))) continue;
      used.add(name.normalize('NFC'));
      const path = parent === '' ? name : `${parent}/${name}`;
      const kind: ItemKind = depth < 3 && next() < 0.45 ? 'folder' : 'file';
      const choices: Presence[] =
        presence === 'local' || presence === 'remote'
          ? [presence]
          : kind === 'folder'
            ? ['synced', 'synced', 'adopted', 'adopted', 'local', 'remote']
            : ['synced', 'synced', 'adopted', 'adopted', 'differs', 'local', 'remote'];
      // A synced item needs a synced folder: the index has no row under a folder it does not know.
      // Below an adopted folder, mostly more of the same (a tree already on both sides, a few changes).
      const own =
        presence === 'adopted'
          ? pick<Presence>([
              'adopted',
              'adopted',
              'adopted',
              ...choices.filter((choice) => choice !== 'synced'),
            ])
          : pick(choices);
      const spec = kind === 'folder' ? `${path}/` : path;
      if (own === 'synced') world.synced(spec);
      else if (own === 'local') world.newLocal(spec);
      else if (own === 'remote') world.newRemote(spec);
      else {
        world.newRemote(spec);
        world.newLocal(spec);
        const local = world.local.get(path);
        const remote = [...world.remote.values()].find((entry) => entry.path === path);
        if (local === undefined || remote === undefined) throw new Error(`no ${path}`);
        if (own === 'adopted' || kind === 'folder') {
          local.size = remote.size;
          local.mtimeNs = BigInt(remote.mTimeMs) * 1_000_000n;
        }
      }
      slots.push({ path, presence: own, kind });
      if (kind === 'folder') fill(path, own, depth + 1);
    }
  };
  fill('', 'root', 0);
  const synced = slots.filter((slot) => slot.presence === 'synced');
  const changes = Math.floor(next() * 4);
  for (let n = 0; n < changes && synced.length > 0; n++) {
    const slot = pick(synced);
    const target = `${slot.path}-moved`;
    try {
      switch (Math.floor(next() * 8)) {
        case 0:
          if (slot.kind === 'file') world.editLocal(slot.path);
          break;
        case 1:
          if (slot.kind === 'file') world.editRemote(slot.path);
          break;
        case 2:
          world.moveLocal(slot.path, target);
          break;
        case 3:
          world.moveRemote(slot.path, target);
          break;
        case 4:
          world.deleteLocal(slot.path);
          break;
        case 5:
          world.deleteRemote(slot.path);
          break;
        case 6:
          world.typeChangeLocal(slot.path);
          break;
        default:
          world.typeChangeRemote(slot.path);
      }
    } catch {
      // The item went with an earlier change (its folder moved or was deleted): no change this time.
    }
  }
  return world;
}

/** The operations in short form: everything in order, and the rows recorded as a set. */
function shape(result: Plan): { status: string; ordered: string[]; recorded: string[] } {
  const lines = result.operations.map(describe);
  return {
    status: result.status === 'ready' ? 'ready' : `held ${result.reason}`,
    ordered: lines.filter((line) => !line.startsWith('index-update ')),
    recorded: lines.filter((line) => line.startsWith('index-update ')).sort(),
  };
}

group('the planner shortcuts', () => {
  it('plan what the whole tree plans, on 3,000 random trees (both case rules)', () => {
    let adoptedLeftOut = 0;
    let adoptedBesideChanges = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const world = randomWorld(seed);
      const items = world.reconcile();
      const caseInsensitive = seed % 2 === 0;
      const options = { caseInsensitive, confirmDeletes: seed % 3 === 0 };
      const short = shape(world.plan(options));
      const whole = shape(world.plan({ ...options, everyItemInTree: true }));
      expect({ seed, ...short }).toEqual({ seed, ...whole });
      const { planned, recorded } = itemsToPlan(items, ROOT_ID);
      adoptedLeftOut += recorded.length;
      if (recorded.length > 0 && planned.length > 0) adoptedBesideChanges += 1;
    }
    // The trees must exercise the shortcut: adopted items left out, also where others changed.
    expect(adoptedLeftOut).toBeGreaterThan(1500);
    expect(adoptedBesideChanges).toBeGreaterThan(500);
  });

  it('leaves a tree already on both sides out of the tree entirely', () => {
    const world = new World();
    for (const spec of ['a/', 'a/b/', 'a/b/c.txt', 'a/d.txt', 'e.txt']) {
      world.newRemote(spec);
      world.newLocal(spec);
    }
    for (const local of world.local.values()) {
      const remote = [...world.remote.values()].find((entry) => entry.path === local.path);
      if (remote === undefined) throw new Error(local.path);
      local.size = remote.size;
      local.mtimeNs = BigInt(remote.mTimeMs) * 1_000_000n;
    }
    const { planned, recorded } = itemsToPlan(world.reconcile(), ROOT_ID);
    expect(planned).toEqual([]);
    expect(recorded.map((item) => item.local?.path).sort()).toEqual(
      ['a', 'a/b', 'a/b/c.txt', 'a/d.txt', 'e.txt'].sort(),
    );
    expect(world.ops().sort()).toEqual(
      ['a', 'a/b', 'a/b/c.txt', 'a/d.txt', 'e.txt'].map((path) => `index-update r:new:${path}`).sort(),
    );
  });
});
