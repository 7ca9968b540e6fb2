// The randomized test's kept failures: each shrunk reproduction in canopy/regressions.ts (and selection-regressions.ts, issue 29) runs again, and the open ones of canopy/selection-open.ts must still fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDevice } from '../helpers/device.ts';
import { describeScenario, describeViolations } from './canopy/format.ts';
import { REGRESSIONS } from './canopy/regressions.ts';
import { SELECTION_REGRESSIONS } from './canopy/selection-regressions.ts';
import { normalizeScenario } from './canopy/replay.ts';
import { generatorForThisMachine, runScenario, startCanopyDevice } from './canopy/run.ts';
import { SYNC_OPEN } from './canopy/selection-open.ts';

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
  it.for(
    [...REGRESSIONS, ...SELECTION_REGRESSIONS].map(
      (regression) => [regression.scenario.seed, regression] as const,
    ),
  )(
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

// Only while some are open: a describe without a test fails.
describe.skipIf(SYNC_OPEN.length === 0)(
  'kept reproductions of failures not fixed yet (they must fail)',
  () => {
    if (SYNC_OPEN.length === 0) it.skip('none open', () => {});
    for (const failure of SYNC_OPEN) {
      const seed = failure.scenario.seed;
      if (failure.fails === 'some runs' || (FOLDING && !failure.scenario.caseInsensitive)) {
        it.skip(`seed ${seed} (fails in some runs only, or needs a case-sensitive volume): ${failure.why.slice(0, 80)}`, () => {});
        continue;
      }
      it.fails(
        `seed ${seed} still breaks an invariant`,
        async () => {
          const result = await runScenario(normalizeScenario(failure.scenario), device);
          expect(result.violations, failure.why).toEqual([]);
        },
        60_000,
      );
    }
  },
);
