// The scenario generator: repeatable, applicable step by step, and covering the tricky kinds of change.
import { describe, expect, it } from 'vitest';
import {
  applyChange,
  depthOf,
  foldedKey,
  nameOf,
  parentOf,
  treeOf,
  type Change,
} from '../../reliability/canopy/model.ts';
import { normalizeScenario, simulate } from '../../reliability/canopy/replay.ts';
import { DEFAULT_GENERATOR, generateScenario, nameKeyOf } from '../../reliability/canopy/scenario.ts';

const SEEDS = Array.from({ length: 300 }, (_, index) => index + 1);
const scenarios = SEEDS.map((seed) => generateScenario(seed));

describe('generateScenario', () => {
  it('makes the same scenario from the same seed', () => {
    expect(generateScenario(17)).toEqual(generateScenario(17));
    expect(generateScenario(17)).not.toEqual(generateScenario(18));
  });

  it('survives a JSON round trip unchanged, NFD names included', () => {
    for (const scenario of scenarios.slice(0, 50)) {
      expect(JSON.parse(JSON.stringify(scenario))).toEqual(scenario);
    }
  });

  it('makes initial trees within the size and depth limits, parents first, without clashing names', () => {
    for (const scenario of scenarios) {
      expect(scenario.initial.length).toBeLessThanOrEqual(DEFAULT_GENERATOR.maxInitialItems);
      const seen = new Map<string, string>();
      for (const item of scenario.initial) {
        expect(depthOf(item.path)).toBeLessThanOrEqual(DEFAULT_GENERATOR.maxDepth);
        const parent = parentOf(item.path);
        if (parent !== '')
          expect(scenario.initial.find((other) => other.path === parent)?.kind).toBe('folder');
        const key = `${parent}/${foldedKey(nameOf(item.path))}`;
        expect(seen.get(key), `${item.path} clashes with ${seen.get(key)}`).toBeUndefined();
        seen.set(key, item.path);
      }
    }
  });

  it('only makes changes that apply, in order, on their side', () => {
    for (const scenario of scenarios) {
      expect(normalizeScenario(scenario)).toEqual(scenario);
    }
  });

  it('never makes two local names a case-insensitive volume would take for one', () => {
    for (const scenario of scenarios.filter((s) => s.caseInsensitive)) {
      const tree = treeOf(scenario.initial);
      for (const change of scenario.local) {
        expect(applyChange(tree, change, nameKeyOf(scenario, 'local'))).not.toBeNull();
        const keys = [...tree.keys()].map((path) => `${parentOf(path)}/${foldedKey(nameOf(path))}`);
        expect(new Set(keys).size).toBe(keys.length);
      }
    }
  });

  it('gives every version on one side its own content (the sides share one only on purpose)', () => {
    for (const scenario of scenarios) {
      const initial = scenario.initial.flatMap((item) => (item.content === undefined ? [] : [item.content]));
      for (const changes of [scenario.local, scenario.remote]) {
        const versions = [...initial, ...changes.flatMap(contentOf)];
        expect(new Set(versions).size).toBe(versions.length);
      }
    }
  });

  it('makes only case-insensitive seeds for a volume that folds names', () => {
    const folding = SEEDS.slice(0, 100).map((seed) =>
      generateScenario(seed, { ...DEFAULT_GENERATOR, foldingVolume: true }),
    );
    expect(folding.every((scenario) => scenario.caseInsensitive)).toBe(true);
    for (const scenario of folding) expect(normalizeScenario(scenario)).toEqual(scenario);
  });

  it('covers each kind of change, both settings, and names differing only in case or normalisation', () => {
    const changes = scenarios.flatMap((scenario) => [...scenario.local, ...scenario.remote]);
    const ops = new Set(changes.map((change) => change.op));
    expect([...ops].sort()).toEqual([
      'create-file',
      'create-folder',
      'delete',
      'edit',
      'file-to-folder',
      'folder-to-file',
      'move',
    ]);
    expect(changes.some((change) => change.op === 'edit' && change.atomic)).toBe(true);
    const moves = changes.filter((change) => change.op === 'move');
    expect(moves.some((move) => parentOf(move.from) !== parentOf(move.to))).toBe(true);
    const only = (a: string, b: string, fold: (name: string) => string): boolean =>
      a !== b && fold(a) === fold(b);
    expect(moves.some((move) => only(nameOf(move.from), nameOf(move.to), (name) => name.toLowerCase()))).toBe(
      true,
    );
    expect(
      moves.some((move) => only(nameOf(move.from), nameOf(move.to), (name) => name.normalize('NFC'))),
    ).toBe(true);
    expect(scenarios.some((s) => s.caseInsensitive) && scenarios.some((s) => !s.caseInsensitive)).toBe(true);
    expect(new Set(scenarios.map((s) => s.initialSide)).size).toBe(2);
    // Both sides editing one file to the same bytes, and both making the same new path.
    expect(
      scenarios.some((s) =>
        s.local.some(
          (a) =>
            a.op === 'edit' &&
            s.remote.some((b) => b.op === 'edit' && b.path === a.path && b.content === a.content),
        ),
      ),
    ).toBe(true);
    expect(
      scenarios.some((s) =>
        s.local.some(
          (a) => a.op === 'create-file' && s.remote.some((b) => b.op === 'create-file' && b.path === a.path),
        ),
      ),
    ).toBe(true);
    // Siblings whose names differ only in case or normalisation, on one side at once.
    const clashing = scenarios.some((scenario) => {
      const { local, remote } = simulate(scenario);
      return [local.tree, remote.tree].some((tree) => {
        const keys = [...tree.keys()].map((path) => `${parentOf(path)}/${foldedKey(nameOf(path))}`);
        return new Set(keys).size < keys.length;
      });
    });
    expect(clashing).toBe(true);
  });
});

function contentOf(change: Change): string[] {
  return 'content' in change ? [change.content] : [];
}
