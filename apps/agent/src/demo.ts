import { fileURLToPath } from 'node:url';
import type { ReplayScript } from '@aibuddy/runtime';

/** The task the built-in demo plays. */
export const DEMO_TASK =
  'Demo: write a small script, fix it, verify it, run it (long output), look back at the full output, ' +
  'find a weather tool on the toolbox MCP server, clean up a stale build folder (with confirmation), ' +
  'and run one command the classifier cannot analyze (with confirmation).';

/**
 * Allow rules the demo adds for its own scripted command: `node report.mjs` runs a script the
 * demo wrote, which the classifier cannot prove harmless, so an allow rule covers it (shown at start).
 */
export const DEMO_ALLOW_RULES: readonly string[] = ['node report.mjs'];

/** The demo's MCP server: a plain `.mjs` shipped with this package, 12 tools over stdio. */
export const DEMO_MCP_SERVER_PATH = fileURLToPath(new URL('../assets/demo-mcp-server.mjs', import.meta.url));

/** The demo's built-in MCP config (one server, `toolbox`, with 12 tools: deferred by the gate). */
export function demoMcpConfig(): { mcpServers: Record<string, { command: string; args: string[] }> } {
  return { mcpServers: { toolbox: { command: process.execPath, args: [DEMO_MCP_SERVER_PATH] } } };
}

// 600 lines of ~70 characters: about 42,000 characters, past both the 30,000-character view of
// `execute` and the 2,500-token compaction threshold. It pauses halfway so the live output and the
// elapsed-time line are visible.
const COUNT_SCRIPT = `// Prints a numbered report, pausing halfway like a slow build.
const line = (i) => \`line \${String(i).padStart(4, '0')}: the quick brown fox jumps over the lazy dog\`;
for (let i = 1; i <= 300; i++) console.log(line(i));
setTimeout(() => {
  for (let i = 301; i <= 600; i++) console.log(line(i));
  console.log('total: 600 lines (TODO)');
}, 1500);
`;

/** The built-in demo replay: every part of the system, in order, with stable call ids. */
export function demoScript(): ReplayScript {
  return {
    steps: [
      {
        text: "I'll start by writing a small report script, and a stale build file to clean up later.",
        toolCalls: [
          { id: 'demo-write', toolName: 'write_file', input: { path: 'report.mjs', content: COUNT_SCRIPT } },
          { id: 'demo-write-stale', toolName: 'write_file', input: { path: 'build/stale.txt', content: 'old build output\n' } },
        ],
      },
      {
        text: 'The summary line still says TODO; fixing it with an exact edit.',
        toolCalls: [
          {
            id: 'demo-edit',
            toolName: 'edit_file',
            input: { path: 'report.mjs', old_text: "'total: 600 lines (TODO)'", new_text: "'total: 600 lines, done'" },
          },
        ],
      },
      {
        text: 'Reading the file back to verify the edit landed.',
        toolCalls: [{ id: 'demo-read', toolName: 'read_file', input: { path: 'report.mjs' } }],
      },
      {
        text: 'Now running it (the allow rule "node report.mjs" covers it, so no confirmation). The output is long: I will only see its head and tail.',
        toolCalls: [{ id: 'demo-run', toolName: 'execute', input: { command: 'node report.mjs', timeout: 60 } }],
      },
      {
        text: 'The middle of the output was cut. Recovering lines from the middle of the full result.',
        toolCalls: [
          { id: 'demo-view', toolName: 'view_tool_call', input: { toolCallId: 'demo-run', offset: 20000, limit: 1200 } },
        ],
      },
      {
        text: 'Next: the weather. No weather tool is loaded, so I search the deferred tools.',
        toolCalls: [{ id: 'demo-search', toolName: 'tool_search', input: { query: 'weather forecast for a city' } }],
      },
      {
        text: 'Found it. Calling the forecast tool of the toolbox server.',
        toolCalls: [{ id: 'demo-forecast', toolName: 'toolbox__get_forecast', input: { city: 'Lisbon', days: 3 } }],
      },
      {
        text: 'Finally, removing the stale build folder. Deleting recursively needs a person to confirm.',
        toolCalls: [{ id: 'demo-clean', toolName: 'execute', input: { command: 'rm -rf build && ls' } }],
      },
      {
        text: 'Last, a case statement: the command classifier does not read those, so it says plainly that it cannot be analyzed and asks.',
        toolCalls: [
          {
            id: 'demo-unanalyzable',
            toolName: 'execute',
            input: { command: 'case "$(uname -s)" in Linux) echo "running on Linux";; *) echo "running elsewhere";; esac' },
          },
        ],
      },
      {
        text:
          'Done. I wrote report.mjs, fixed its summary line with an exact edit, verified it by reading it back, ran it ' +
          '(allowed by a rule; 600 lines: the model saw head and tail, the terminal streamed it live, and view_tool_call recovered the middle), ' +
          'found and called toolbox__get_forecast through tool_search, removed build/ after confirmation, and ran a command ' +
          'that could not be analyzed only after confirmation.',
      },
    ],
  };
}
