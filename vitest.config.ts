// Test runner settings; the JSON report is what .ci/run counts.
import { defineConfig } from 'vitest/config';
import { DurationSequencer } from './test/helpers/duration-sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The electron package downloads its binary on first require; no test may run Electron (none can
    // here), so a stray import gets a path in a folder that does not exist and fails at once.
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/electron-is-never-run-by-tests' },
    // Two test files at once on CI's two cores (vitest's default is one fewer than the cores: one here).
    // Most of a test's time waits on the device, a child process or the file system, not on a core:
    // the suite went from 895 s to 551 s, every test passing (2026-11-28).
    maxWorkers: 2,
    // The longest files first (test/durations.json), so no long file runs alone at the end.
    sequence: { sequencer: DurationSequencer },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
