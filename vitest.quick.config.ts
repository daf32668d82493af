import { configDefaults, defineConfig } from 'vitest/config';
import { VITEST_BASE } from './test/vitest-base.js';

// `npm run test:quick`, the inner loop (issue 42): the unit tests on Memory and one smoke test per
// family (test/smoke), without the HTTP integration suite, the PostgreSQL-backed tests (they need the
// embedded server) or the browser. `npm test` (vitest.config.ts) still runs everything, and CI runs that.
//
// Speed: most files share their worker's module cache (isolate: false), which on 2 cores takes the run
// from about 5 minutes to 2; files that spy on or mock modules, or stub globals, keep a fresh module
// graph each (ISOLATED). A new test that needs isolation fails here first: add it to the list.
const ISOLATED = [
  'src/bundles/archive/archive-reader.test.ts',
  'src/bundles/archive/stage-archive.parallel.test.ts',
  'src/evals/runner/case-deadline.test.ts',
  'src/platform/auth/jwt-authenticator.test.ts',
  'src/platform/sse/open-sse-stream.test.ts',
  'src/platform/store/start-sweeper.test.ts',
  'src/tools/invocation-deadline.test.ts',
  'src/webhooks/webhook-store.test.ts',
  'src/workflows/runs/workflow-run-store.test.ts',
];
const EXCLUDED = [
  ...configDefaults.exclude,
  // PostgreSQL-backed (test/helpers/postgres.ts): the full suite's.
  'src/platform/storage/postgres/**',
  'src/platform/storage/create-storage.test.ts',
  'src/runs/clock-skew.test.ts',
];

export default defineConfig({
  test: {
    ...VITEST_BASE,
    reporters: [...VITEST_BASE.reporters],
    projects: [
      {
        extends: true,
        test: { name: 'quick', isolate: false, include: ['src/**/*.test.ts', 'console/src/**/*.test.ts', 'test/smoke/**/*.test.ts'], exclude: [...EXCLUDED, ...ISOLATED] },
      },
      { extends: true, test: { name: 'quick-isolated', include: ISOLATED, exclude: EXCLUDED } },
    ],
  },
});
