import { defineConfig } from 'vitest/config';
import { sharedTestOptions, workspaceAliases } from '@aibuddy/vitest-config';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: { ...sharedTestOptions, include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
