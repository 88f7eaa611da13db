import { defineConfig } from 'vitest/config';
import { sharedTestOptions, workspaceAliases } from '@aibuddy/vitest-config';

// One run over every package, so the whole suite has one summary (and one JSON report for CI).
export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    ...sharedTestOptions,
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'tooling/layering/*.test.ts',
      'tooling/bench/*.test.ts',
    ],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
