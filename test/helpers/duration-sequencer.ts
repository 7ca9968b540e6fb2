// Runs the longest test files first, by the durations of an earlier full run kept in test/durations.json.
//
// Two workers share the suite; a fresh clone has no vitest cache, so vitest's own order (by file size)
// can leave one long file running alone at the end while the other worker idles: that tail was about a
// tenth of CI's run. Longest first keeps both workers busy until the end. Files the list does not know
// (new ones) count as DEFAULT_SECONDS. Refresh the list after a full run with
// `node scripts/test-durations.ts`; a stale list only costs order, never a test.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DEFAULT_SECONDS = 10;

function knownDurations(): Map<string, number> {
  try {
    const text = readFileSync(new URL('../durations.json', import.meta.url), 'utf8');
    return new Map(Object.entries(JSON.parse(text) as Record<string, number>));
  } catch {
    return new Map();
  }
}

export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = knownDurations();
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification): number =>
      durations.get(relative(root, file.moduleId)) ?? DEFAULT_SECONDS;
    return Promise.resolve([...files].sort((a, b) => seconds(b) - seconds(a)));
  }
}
