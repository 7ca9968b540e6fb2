// Issue 29's part of the randomized model on hand-made data: the plan leaves the seed's own scenario as it was, and each check catches what it is for.
import { describe, expect, it } from 'vitest';
import type { PassState } from './canopy/invariants.ts';
import { DEFAULT_GENERATOR, generateScenario } from './canopy/scenario.ts';
import {
  checkNothingHere,
  checkUntouched,
  withoutExcluded,
  type FolderPrint,
} from './canopy/selection-checks.ts';

const SEEDS = Array.from({ length: 300 }, (_, index) => index + 1);

describe('the selection plan of a seed', () => {
  it('is drawn from a stream of its own: the trees and changes are those of the seed without it', () => {
    for (const seed of SEEDS) {
      const { selection, ...base } = generateScenario(seed, { ...DEFAULT_GENERATOR, selectionRate: 1 });
      expect(base).toEqual(generateScenario(seed, { ...DEFAULT_GENERATOR, selectionRate: 0 }));
      if (selection === undefined) continue;
      expect(selection.exclude.length).toBeGreaterThan(0);
      const folders = base.initial.filter((item) => item.kind === 'folder').map((item) => item.path);
      for (const step of selection.exclude) expect(folders).toContain(step.path);
      for (const path of selection.include)
        expect(selection.exclude.map((step) => step.path)).toContain(path);
    }
  });

  it('comes at the rate asked for, the same for the same seed', () => {
    const planned = SEEDS.filter((seed) => generateScenario(seed).selection !== undefined).length;
    expect(planned).toBeGreaterThan(SEEDS.length * 0.15);
    expect(planned).toBeLessThan(SEEDS.length * 0.4);
    expect(generateScenario(17, { ...DEFAULT_GENERATOR, selectionRate: 1 })).toEqual(
      generateScenario(17, { ...DEFAULT_GENERATOR, selectionRate: 1 }),
    );
  });
});

function print(below: Record<string, string>, name = 'photos', parentId = 'root'): FolderPrint {
  return { name, parentId, below: new Map(Object.entries(below)) };
}

describe('an excluded folder as only the other client changed it', () => {
  const before = print({ '2019': 'folder f1 e1', '2019/old.jpg': 'file a1 e2 9 100 "old"' });

  it('holds when nothing changed, and says what the client made, changed, moved or deleted', () => {
    expect(checkUntouched('photos', before, print(Object.fromEntries(before.below)))).toEqual([]);
    const changed = print({ '2019': 'folder f1 e1', '2019/old.jpg': 'file a1 e3 9 200 "new"', x: 'file' });
    const messages = checkUntouched('photos', before, changed).map((violation) => violation.message);
    expect(messages).toEqual([
      expect.stringContaining('"2019/old.jpg" changed'),
      expect.stringContaining('"x" made'),
    ]);
    expect(checkUntouched('photos', before, undefined)[0]?.code).toBe('excluded-changed');
    expect(
      checkUntouched('photos', before, print({ ...Object.fromEntries(before.below) }, 'pics')),
    ).toHaveLength(1);
  });

  it('lets the exclusion pass write what was unsynced in a copy to remove, and its folders', () => {
    const uploaded = print({
      '2019': 'folder f1 e9',
      '2019/old.jpg': 'file a1 e2 9 100 "old"',
      '2019/new.jpg': 'file',
    });
    expect(checkUntouched('photos', before, uploaded, new Set(['2019/new.jpg']))).toEqual([]);
  });
});

describe('what the usual checks leave out', () => {
  const state: PassState = {
    local: [
      { path: 'photos', kind: 'folder' },
      { path: 'photos/2019', kind: 'folder' },
      { path: 'moved/kept', kind: 'folder' },
      { path: 'a.txt', kind: 'file', content: 'A' },
    ],
    remote: [
      { path: 'photos', kind: 'folder', id: 'p' },
      { path: 'photos/2019', kind: 'folder', id: 'x' },
      { path: 'photos/2019/old.jpg', kind: 'file', id: 'o', content: 'O' },
      { path: 'a.txt', kind: 'file', id: 'a', content: 'A' },
      { path: 'b.txt', kind: 'file', id: 'b', content: 'B' },
    ],
    index: [],
    trashed: [],
  };

  it('is the excluded folders on both sides, a kept copy moved here, and items moved into a copy on the device', () => {
    const view = withoutExcluded(state, {
      folders: ['photos/2019'],
      localOnly: ['moved/kept'],
      remoteOnly: ['b.txt'],
    });
    expect(view.local.map((item) => item.path)).toEqual(['photos', 'a.txt']);
    expect(view.remote.map((item) => item.path)).toEqual(['photos', 'a.txt']);
  });

  it('leaves nothing of a folder whose copy was removed, unless the user made something there', () => {
    expect(checkNothingHere('photos/2019', 'photos/2019', state.local, false)[0]?.code).toBe('excluded-here');
    expect(checkNothingHere('photos/2019', 'photos/2019', state.local, true)).toEqual([]);
    expect(checkNothingHere('docs', 'docs', state.local, false)).toEqual([]);
  });
});
