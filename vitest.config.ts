// Test runner settings; the JSON report is what .ci/run counts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The electron package downloads its binary on first require; no test may run Electron (none can
    // here), so a stray import gets a path in a folder that does not exist and fails at once.
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/electron-is-never-run-by-tests' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
