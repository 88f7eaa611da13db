// Prints the one-line totals CI reads ("N passed, N failed") from vitest's JSON report.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results.json';
// Gates that failed after the tests (see .ci/run) count as failed tests in the one-line total.
const extraIndex = process.argv.indexOf('--extra-failed');
const extraFailed = extraIndex > 0 ? Number(process.argv[extraIndex + 1]) || 0 : 0;
if (!existsSync(file)) {
  console.log(`0 passed, ${1 + extraFailed} failed`);
  console.error(`no test report at ${file}: the test run did not finish (see the output above)`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0) + extraFailed;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
