// Soak runs in `npm test` (issue 18): 200 mixed seeds with crashes, device faults, changes mid-pass and live seeds; a share of them exclude folders and include some again (issue 29).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { TestDevice } from '../helpers/device.ts';
import { describeScenario, describeViolations } from './canopy/format.ts';
import { generatorForThisMachine, startCanopyDevice } from './canopy/run.ts';
import { removeSignedInProfiles } from './canopy/second-process.ts';
import { runSoakScenario } from './canopy/soak-run.ts';
import { describeDisturbances, generateSoakScenario, SOAK_GENERATOR } from './canopy/soak-scenario.ts';

const SEEDS = Array.from({ length: 200 }, (_, index) => index + 1);
/**
 * Seeds that meet a failure found and not fixed yet (kept failing in canopy/soak-regressions.ts
 * SOAK_OPEN): skipped here, with the cause, until the fix; the kept reproduction must fail meanwhile.
 */
const KNOWN_OPEN: ReadonlyMap<number, string> = new Map();
const GENERATOR = generatorForThisMachine(SOAK_GENERATOR);

let device: TestDevice;

beforeAll(async () => {
  device = await startCanopyDevice();
});
afterAll(async () => {
  await removeSignedInProfiles(device);
  await device.stop();
});

describe('randomized sync with crashes, faults, changes during a pass and the live service', () => {
  // One seed at a time: each owns the device's request stream while its crash point and faults land.
  it.for(SEEDS)(
    'seed %i: quiet within bounded passes, both sides identical, the index agrees, nothing lost or doubled',
    async (seed, { expect, skip }) => {
      const open = KNOWN_OPEN.get(seed);
      if (open !== undefined) skip(open);
      const scenario = generateSoakScenario(seed, GENERATOR);
      const result = await runSoakScenario(scenario, device);
      const story = [
        `seed ${seed} broke an invariant (${result.phase}); shrink and print it with: npm run soak -- --seed ${seed}`,
        describeViolations(result.violations),
        `disturbances: ${describeDisturbances(scenario.soak)}`,
        describeScenario(scenario),
      ].join('\n');
      expect(result.violations, story).toEqual([]);
    },
  );
});
