import { configDefaults, defineConfig } from 'vitest/config';
import { ENABLE_BROWSER_TESTS, findChromium } from './test/browser/find-chromium.js';
import { INTEGRATION_TESTS, UNIT_TESTS_ISOLATED, UNIT_TESTS_ON_POSTGRES, VITEST_BASE } from './test/vitest-base.js';

// The console's browser tests need a Chromium; without one they are left out, said in one line.
const browserTests = findChromium() !== null;
if (!browserTests && process.env.VITEST_WORKER_ID === undefined) {
  console.log(`browser tests skipped: no Chromium found; to run them, ${ENABLE_BROWSER_TESTS}`);
}

// Every test on the Memory storage (three projects: the unit tests and the HTTP integration suite each
// sharing their workers' module caches, and the rest isolated), and the HTTP integration suite again on a
// real PostgreSQL (test/helpers/test-storage.ts), so both providers answer the same tests.
export default defineConfig({
  test: {
    ...VITEST_BASE,
    reporters: [...VITEST_BASE.reporters],
    // One embedded PostgreSQL server per run (test/helpers/postgres.ts gives each file a schema).
    globalSetup: ['./test/helpers/postgres-global-setup.ts'],
    projects: [
      {
        extends: true,
        // The unit tests that may share their worker's module cache (test/vitest-base.ts).
        test: {
          name: 'memory',
          isolate: false,
          include: ['src/**/*.test.ts', 'console/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT_TESTS_ISOLATED, ...UNIT_TESTS_ON_POSTGRES],
        },
      },
      {
        extends: true,
        // The HTTP integration suite: each file builds its own apps and servers, none mocks a module, so
        // the files share their worker's module cache too (test/vitest-base.ts).
        test: { name: 'memory-http', isolate: false, include: [INTEGRATION_TESTS], exclude: [...configDefaults.exclude] },
      },
      {
        extends: true,
        // The rest, each file with a fresh module graph: the isolated and PostgreSQL-backed unit tests,
        // the contract, smoke and container tests, and the browser.
        test: {
          name: 'memory-isolated',
          include: [...UNIT_TESTS_ISOLATED, ...UNIT_TESTS_ON_POSTGRES, 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, INTEGRATION_TESTS, ...(browserTests ? [] : ['test/browser/**'])],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          isolate: false,
          include: [INTEGRATION_TESTS],
          // Documentation tests, process tests that choose their storage themselves, and the CLI's
          // (a client of the HTTP API: the same requests, whatever the service stores them in).
          exclude: [...configDefaults.exclude, 'test/integration/readme.test.ts', 'test/integration/readme-integrating.test.ts', 'test/integration/readme-runnable.test.ts', 'test/integration/mcp-gateway-inspector.test.ts', 'test/integration/storage-cli.test.ts', 'test/integration/console-build.test.ts', 'test/integration/multi-process.test.ts', 'test/integration/lifecycle-sigterm.test.ts', 'test/integration/evals-authors-faults.test.ts', 'test/integration/a2a-faults.test.ts', 'test/integration/rolling-deploy.test.ts', 'test/integration/webhooks-cluster.test.ts', 'test/integration/database-faults.test.ts', 'test/integration/database-freeze-requests.test.ts', 'test/integration/cli-client.test.ts'],
          env: { PORTCULLIS_TEST_STORAGE: 'Postgres' },
        },
      },
    ],
  },
});
