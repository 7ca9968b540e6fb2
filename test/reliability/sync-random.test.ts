// CanopyCheck-style randomized sync (issue 5): random trees and changes on both sides, one pass, invariants; a share of seeds also excludes folders, changes around them and includes some again (issue 29).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { TestDevice } from '../helpers/device.ts';
import { describeScenario, describeViolations, reproduceCommand } from './canopy/format.ts';
import { generatorForThisMachine, runScenario, startCanopyDevice } from './canopy/run.ts';
import { generateScenario } from './canopy/scenario.ts';

const SEEDS = Array.from({ length: 200 }, (_, index) => index + 1);
const GENERATOR = generatorForThisMachine();

/**
 * Seeds that meet a failure found and not fixed yet (kept failing in canopy/selection-open.ts
 * SYNC_OPEN): skipped here, with the cause, until the fix.
 */
const KNOWN_OPEN: ReadonlyMap<number, string> = new Map();

let device: TestDevice;

beforeAll(async () => {
  device = await startCanopyDevice();
});
afterAll(async () => {
  await device.stop();
});

describe('one pass after random changes on both sides', () => {
  // One seed at a time, as `npm run sync-random` runs them: what the file system does (which inode a
  // new file gets) then depends on the seed alone, so a failing seed reproduces there.
  it.for(SEEDS)(
    'seed %i: both sides identical, the index agrees, no content lost',
    async (seed, { expect, skip }) => {
      const open = KNOWN_OPEN.get(seed);
      if (open !== undefined) skip(open);
      const scenario = generateScenario(seed, GENERATOR);
      const result = await runScenario(scenario, device);
      const story = [
        `seed ${seed} broke an invariant (${result.phase}); shrink and print it with: ${reproduceCommand(seed)}`,
        describeViolations(result.violations),
        describeScenario(scenario),
      ].join('\n');
      expect(result.violations, story).toEqual([]);
    },
  );
});
