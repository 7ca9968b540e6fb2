// Real `mch-sync run` children killed with SIGKILL mid-work (one seed per kind of work) converge: nothing lost or doubled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNoConflictedCopies, checkNoDuplicates, checkNoLeftovers } from './kill/checks.ts';
import { runKillSeed, startKillRig, type KillRig } from './kill/kill-run.ts';
import { generateKillScenario, type WorkKind } from './kill/scenario.ts';

const FILES = 300;

/**
 * One seed of each kind of work at 300 files (`run-kills.ts` runs any number). Seeds 6 and 11 kill a
 * live `mch-sync run` too, 6 and 19 kill more than one run.
 */
const SEEDS: Record<WorkKind, number> = {
  upload: 1,
  download: 11,
  mixed: 3,
  'local-moves': 6,
  'remote-moves': 19,
};

let rig: KillRig;

beforeAll(async () => {
  rig = await startKillRig();
});

afterAll(async () => {
  await rig?.stop();
});

describe('mch-sync run killed with SIGKILL at seeded moments, then run until quiet', () => {
  for (const [kind, seed] of Object.entries(SEEDS)) {
    it(`seed ${seed} (${kind}): both trees and the index agree, nothing lost, doubled or left behind`, async () => {
      expect(generateKillScenario(seed, FILES).kind).toBe(kind);
      const result = await runKillSeed(seed, { files: FILES, rig });
      expect(result.violations).toEqual([]);
    }, 120_000);
  }

  it('kills runs in the middle of their work (the seeds test what they say)', async () => {
    // Not a timing claim: the first upload of 300 files (and 25 folders) makes some 325 work requests;
    // seed 20 kills the first run at the 122nd, long before it is done.
    const plan = generateKillScenario(20, FILES);
    expect(plan.kills[0]).toMatchObject({ at: 'request', live: false });
    const result = await runKillSeed(20, { files: FILES, rig });
    expect(result.killed).toBeGreaterThan(0);
    expect(result.violations).toEqual([]);
  }, 120_000);
});

describe('the checks a kill needs beyond the canopy invariants', () => {
  const file = (path: string, content: string) => ({ path, kind: 'file' as const, content });

  it('names the engine temporaries left outside .mch-sync', () => {
    const local = [
      file('a.txt', 'a'),
      file('d/.mch-dl-3f2a', 'b'),
      file('d/..mch-dl-3f2a.mch-partial', 'c'),
      { path: '.mch-moving-4-docs', kind: 'folder' as const },
    ];
    expect(checkNoLeftovers(local).map((violation) => violation.message)).toEqual([
      'temporary file left: d/.mch-dl-3f2a',
      'temporary file left: d/..mch-dl-3f2a.mch-partial',
      'temporary folder left: .mch-moving-4-docs',
    ]);
  });

  it('names one version at two paths, and a conflicted copy when one side changed', () => {
    const items = [file('a.txt', 'v1'), file('d/a.txt', 'v1'), file('b.txt', 'v2')];
    expect(checkNoDuplicates(items, 'local')).toEqual([
      { code: 'duplicate', message: 'local: one version at a.txt, d/a.txt' },
    ]);
    expect(checkNoConflictedCopies([file('b (conflicted copy 2026-11-26 103000).txt', 'v3')])).toHaveLength(
      1,
    );
    expect(checkNoConflictedCopies(items)).toEqual([]);
  });
});
