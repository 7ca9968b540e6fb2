// The shrinker: it finds the few steps a failure needs, keeps only steps that still apply, and stops in time.
import { describe, expect, it } from 'vitest';
import { generateScenario, type Scenario } from '../../reliability/canopy/scenario.ts';
import { scenarioSize, shrinkScenario } from '../../reliability/canopy/shrink.ts';

const BIG: Scenario = {
  seed: 5,
  caseInsensitive: true,
  initialSide: 'remote',
  initial: [
    { path: 'b.txt', kind: 'file', content: 'B0' },
    { path: 'c.txt', kind: 'file', content: 'C0' },
    { path: 'docs', kind: 'folder' },
    { path: 'e', kind: 'folder' },
    { path: 'docs/a.txt', kind: 'file', content: 'A0' },
    { path: 'docs/sub', kind: 'folder' },
    { path: 'e/f.txt', kind: 'file', content: 'F0' },
  ],
  local: [
    { op: 'edit', path: 'b.txt', content: 'B1' },
    { op: 'edit', path: 'docs/a.txt', content: 'A1', atomic: true },
    { op: 'create-file', path: 'docs/sub/x', content: 'X1' },
    { op: 'move', from: 'c.txt', to: 'e/C.txt' },
  ],
  remote: [
    { op: 'edit', path: 'e/f.txt', content: 'F2' },
    { op: 'delete', path: 'docs' },
    { op: 'file-to-folder', path: 'b.txt' },
  ],
};

/** The "bug": an edit inside docs/ on one side while the other deletes docs/. */
async function editAgainstFolderDelete(scenario: Scenario): Promise<boolean> {
  return (
    scenario.local.some((change) => change.op === 'edit' && change.path.startsWith('docs/')) &&
    scenario.remote.some((change) => change.op === 'delete' && change.path === 'docs')
  );
}

describe('shrinkScenario', () => {
  it('shrinks to the steps the failure needs and the items they touch', async () => {
    const { scenario } = await shrinkScenario(BIG, editAgainstFolderDelete);
    expect(scenario).toEqual({
      ...BIG,
      caseInsensitive: false,
      initial: [
        { path: 'docs', kind: 'folder' },
        { path: 'docs/a.txt', kind: 'file', content: 'A0' },
      ],
      local: [{ op: 'edit', path: 'docs/a.txt', content: 'A1' }],
      remote: [{ op: 'delete', path: 'docs' }],
    });
  });

  it('leaves a scenario that does not fail again as it was', async () => {
    const { scenario } = await shrinkScenario(BIG, async () => false);
    expect(scenario).toEqual(BIG);
  });

  it('stops after maxRuns tries', async () => {
    let runs = 0;
    const result = await shrinkScenario(
      BIG,
      async () => {
        runs += 1;
        return false;
      },
      { maxRuns: 5 },
    );
    expect(runs).toBe(5);
    expect(result.runs).toBe(5);
  });

  it('shrinks a generated scenario that always fails to nothing', async () => {
    const { scenario } = await shrinkScenario(generateScenario(11), async () => true);
    expect(scenarioSize(scenario)).toBe(0);
  });
});
