import { configDefaults, defineConfig } from 'vitest/config';
import { ENABLE_BROWSER_TESTS, findChromium } from './test/browser/find-chromium.js';

// The console's browser tests need a Chromium; without one they are left out, said in one line.
const browserTests = findChromium() !== null;
if (!browserTests && process.env.VITEST_WORKER_ID === undefined) {
  console.log(`browser tests skipped: no Chromium found; to run them, ${ENABLE_BROWSER_TESTS}`);
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(browserTests ? [] : ['test/browser/**'])],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
