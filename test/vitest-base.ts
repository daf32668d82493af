// What both vitest configurations share (vitest.config.ts, the whole suite; vitest.quick.config.ts,
// the inner loop): node, a forked worker per file group, the timeouts and the reporters.
export const VITEST_BASE = {
  environment: 'node',
  pool: 'forks',
  testTimeout: 20_000,
  hookTimeout: 30_000,
  reporters: ['default', './test/helpers/summary-reporter.ts'],
} as const;
