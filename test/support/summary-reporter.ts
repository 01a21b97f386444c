import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the plain closing line `tests: N passed, N failed, N skipped` that CI reads,
 * after vitest's own summary. Skips are listed by name: nothing here may skip silently.
 */
export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped.push(test.fullName);
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    for (const name of skipped) process.stdout.write(`skipped: ${name}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ''}\n`);
  }
}
