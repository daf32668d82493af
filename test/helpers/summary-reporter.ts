// Prints the plain closing line `N passed, N failed[, N skipped]` after vitest's own summary,
// so CI (and anyone reading a log) gets one stable, tool-independent verdict line.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      // A module that failed to load has no tests; count it so a broken file never reads as green.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed += 1;
      // A hook that threw (a beforeAll, an afterAll) leaves its tests skipped or passed: count each such suite.
      else if (mod.errors().length > 0) failed += 1;
      for (const suite of mod.children.allSuites()) if (suite.errors().length > 0) failed += 1;
    }
    failed += unhandledErrors.length;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}
