// The soak runs' kept failures: each shrunk reproduction in canopy/soak-regressions.ts (and issue 29's in selection-regressions.ts and selection-open.ts) runs again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDevice } from '../helpers/device.ts';
import { describeScenario, describeViolations } from './canopy/format.ts';
import { normalizeScenario } from './canopy/replay.ts';
import { generatorForThisMachine, startCanopyDevice } from './canopy/run.ts';
import { removeSignedInProfiles } from './canopy/second-process.ts';
import { runSoakScenario } from './canopy/soak-run.ts';
import { describeDisturbances } from './canopy/soak-scenario.ts';
import { SELECTION_SOAK_OPEN } from './canopy/selection-open.ts';
import { SELECTION_SOAK_REGRESSIONS } from './canopy/selection-regressions.ts';
import { SOAK_OPEN as KEPT_OPEN, SOAK_REGRESSIONS as KEPT } from './canopy/soak-regressions.ts';

// Issue 29's kept reproductions beside the soak's own.
const SOAK_REGRESSIONS = [...KEPT, ...SELECTION_SOAK_REGRESSIONS];
const SOAK_OPEN = [...KEPT_OPEN, ...SELECTION_SOAK_OPEN];

// A scenario with local names a folding volume (macOS, Windows) would merge cannot be made there.
const FOLDING = generatorForThisMachine().foldingVolume === true;

let device: TestDevice;

beforeAll(async () => {
  device = await startCanopyDevice();
});
afterAll(async () => {
  await removeSignedInProfiles(device);
  await device.stop();
});

describe('kept reproductions of soak seeds that failed', () => {
  it.for(SOAK_REGRESSIONS.map((regression) => [regression.scenario.seed, regression] as const))(
    'seed %i: quiet, both sides identical, the index agrees, nothing lost or doubled',
    async ([, regression], { expect, skip }) => {
      if (FOLDING && !regression.scenario.caseInsensitive) skip('needs a case-sensitive local volume');
      const scenario = { ...normalizeScenario(regression.scenario), soak: regression.scenario.soak };
      // The JSON the shrinker printed is what runs.
      expect(scenario).toEqual(regression.scenario);
      const result = await runSoakScenario(scenario, device);
      const story = [
        regression.why,
        describeViolations(result.violations),
        `disturbances: ${describeDisturbances(scenario.soak)}`,
        describeScenario(scenario),
      ];
      expect(result.violations, story.join('\n')).toEqual([]);
    },
  );
});

// Only while some are open: a describe without a test fails.
describe.skipIf(SOAK_OPEN.length === 0)(
  'kept reproductions of soak failures not fixed yet (they must fail)',
  () => {
    if (SOAK_OPEN.length === 0) it.skip('none open', () => {});
    for (const failure of SOAK_OPEN) {
      const seed = failure.scenario.seed;
      if (failure.fails === 'some runs') {
        it.skip(`seed ${seed} (fails in some runs only: kept, not run): ${failure.why.slice(0, 80)}`, () => {});
        continue;
      }
      it.fails(
        `seed ${seed} still breaks an invariant`,
        async () => {
          const scenario = { ...normalizeScenario(failure.scenario), soak: failure.scenario.soak };
          const result = await runSoakScenario(scenario, device);
          expect(result.violations, failure.why).toEqual([]);
        },
        60_000,
      );
    }
  },
);
