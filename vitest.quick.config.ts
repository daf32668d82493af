import { configDefaults, defineConfig } from 'vitest/config';
import { UNIT_TESTS_ISOLATED, UNIT_TESTS_ON_POSTGRES, VITEST_BASE } from './test/vitest-base.js';

// `npm run test:quick`, the inner loop (issue 42): the unit tests on Memory and one smoke test per
// family (test/smoke), without the HTTP integration suite, the PostgreSQL-backed tests (they need the
// embedded server) or the browser. `npm test` (vitest.config.ts) still runs everything, and CI runs that.
//
// Speed: most unit tests share their worker's module cache (test/vitest-base.ts says which do not).
const EXCLUDED = [...configDefaults.exclude, ...UNIT_TESTS_ON_POSTGRES];

export default defineConfig({
  test: {
    ...VITEST_BASE,
    reporters: [...VITEST_BASE.reporters],
    projects: [
      {
        extends: true,
        test: { name: 'quick', isolate: false, include: ['src/**/*.test.ts', 'console/src/**/*.test.ts', 'test/smoke/**/*.test.ts'], exclude: [...EXCLUDED, ...UNIT_TESTS_ISOLATED] },
      },
      { extends: true, test: { name: 'quick-isolated', include: UNIT_TESTS_ISOLATED, exclude: EXCLUDED } },
    ],
  },
});
