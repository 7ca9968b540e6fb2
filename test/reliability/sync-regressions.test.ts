// The randomized test's kept failures: each shrunk reproduction in canopy/regressions.ts runs again.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { TestDevice } from '../helpers/device.ts';
import { describeScenario, describeViolations } from './canopy/format.ts';
import { REGRESSIONS } from './canopy/regressions.ts';
import { normalizeScenario } from './canopy/replay.ts';
import { generatorForThisMachine, runScenario, startCanopyDevice } from './canopy/run.ts';

// A scenario with local names a folding volume (macOS, Windows) would merge cannot be made there.
const FOLDING = generatorForThisMachine().foldingVolume === true;

let device: TestDevice;

beforeAll(async () => {
  device = await startCanopyDevice();
});
afterAll(async () => {
  await device.stop();
});

describe('kept reproductions of seeds that failed', () => {
  it.for(REGRESSIONS.map((regression) => [regression.scenario.seed, regression] as const))(
    'seed %i: both sides identical, the index agrees, no content lost',
    async ([, regression], { expect, skip }) => {
      if (FOLDING && !regression.scenario.caseInsensitive) skip('needs a case-sensitive local volume');
      // Normalised as a replay is: the JSON the shrinker printed is what ran.
      const scenario = normalizeScenario(regression.scenario);
      expect(scenario).toEqual(regression.scenario);
      const result = await runScenario(scenario, device);
      const story = [regression.why, describeViolations(result.violations), describeScenario(scenario)];
      expect(result.violations, story.join('\n')).toEqual([]);
    },
  );
});
