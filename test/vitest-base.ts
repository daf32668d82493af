// What both vitest configurations share (vitest.config.ts, the whole suite; vitest.quick.config.ts,
// the inner loop): node, a forked worker per file group, the timeouts and the reporters, and which
// unit tests may share their worker's module cache.
import { availableParallelism } from 'node:os';

export const VITEST_BASE = {
  environment: 'node',
  pool: 'forks',
  // Vitest's default in run mode is one worker fewer than the CPUs: on a 2-core machine, one worker,
  // and the whole suite ran file after file. Most files wait on sockets, timers and child processes more
  // than they compute: two workers at least, one fewer than the CPUs on a larger machine.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A bound on a hung test, not on a slow one: beside a second suite run (load 6–11) tests that take
  // 7–18 s alone passed 20 s (amplification-tools, webhooks-cluster). Timing claims are asserted where
  // they are the behaviour, and measured in bench/.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  reporters: ['default', './test/helpers/summary-reporter.ts'],
} as const;

/**
 * Unit tests (src/**, console/src/**) run with isolate: false — files share their worker's module
 * cache, which takes the import of the app's modules from once a file to once a worker (on 2 cores the
 * quick run went from about 5 minutes to 2) — except these, which spy on or mock modules or stub
 * globals and keep a fresh module graph each. A new test that needs isolation fails first in a shared
 * worker: add it here.
 */
export const UNIT_TESTS_ISOLATED = [
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

/**
 * The HTTP integration suite, run on each storage provider with isolate: false as well: every file
 * builds its own apps, servers and schema and mocks no module, so sharing the worker's module cache only
 * takes the app's import from once a file to once a worker (measured on the Memory half: 491 → 415 s,
 * 13.2 → 9.1 CPU-minutes; bench/README.md, "How long npm test takes").
 */
export const INTEGRATION_TESTS = 'test/integration/**/*.test.ts';

/** Unit tests on the embedded PostgreSQL (test/helpers/postgres.ts): the full suite runs them, isolated. */
export const UNIT_TESTS_ON_POSTGRES = ['src/platform/storage/postgres/**/*.test.ts', 'src/platform/storage/create-storage.test.ts', 'src/runs/clock-skew.test.ts'];
