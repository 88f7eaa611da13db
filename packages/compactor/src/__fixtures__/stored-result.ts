import type { StoredResult } from '../result-store.js';

/** A valid compacted-result record for store tests: a trimmed `read_file` result. */
export function storedResult(
  toolCallId: string,
  taskId: string | null = 'task-1',
  output: unknown = `raw output of ${toolCallId}`,
): StoredResult {
  return {
    version: 1,
    taskId,
    toolCallId,
    toolName: 'read_file',
    input: { path: 'a.txt' },
    output,
    modelText: String(output),
    strategy: 'trim',
    originalTokens: 3_000,
    compactedTokens: 100,
    compacted: { type: 'text', value: 'short' },
    createdAt: new Date(0).toISOString(),
  };
}
