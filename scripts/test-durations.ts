// `node scripts/test-durations.ts [REPORT]`: writes test/durations.json (seconds per test file) from a full run's vitest JSON report, for the longest-first order of test/helpers/duration-sequencer.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const reportPath = process.argv[2] ?? `${root}test-results/vitest.json`;
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
const durations: Record<string, number> = {};
for (const file of [...report.testResults].sort((a, b) => a.name.localeCompare(b.name))) {
  // Relative to the checkout the report came from (a fresh clone's, say): from its `test/` on.
  const at = file.name.indexOf('/test/');
  const name = at < 0 ? relative(root, file.name) : file.name.slice(at + 1);
  durations[name] = Math.round((file.endTime - file.startTime) / 100) / 10;
}
writeFileSync(`${root}test/durations.json`, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
