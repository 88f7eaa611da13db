import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import type { ComposedAgent } from './compose.js';
import { chooseHostConfirmation } from './confirmation.js';
import { createModel } from './create-model.js';
import type { AgentEvent } from './events.js';
import { runTask } from './run-task.js';

const TEST_SERVER = fileURLToPath(new URL('../../../packages/discovery/src/__fixtures__/test-server.mjs', import.meta.url));

/**
 * The model call number `gatedCall` waits until every MCP server of the run has started (or failed),
 * so that a test does not depend on how fast this machine starts a server.
 */
function gatedModel(demo: ReturnType<typeof createModel>, gatedCall: number, agent: () => ComposedAgent | undefined) {
  let calls = 0;
  const gate = async () => {
    if (++calls === gatedCall) await agent()?.whenMcpStarted();
  };
  const model = wrapLanguageModel({
    model: demo.model as Parameters<typeof wrapLanguageModel>[0]['model'],
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: async ({ doGenerate }) => {
        await gate();
        return doGenerate();
      },
      wrapStream: async ({ doStream }) => {
        await gate();
        return doStream();
      },
    },
  });
  return { ...demo, model };
}

describe('a run does not wait for a slow MCP server (mcpStartWaitMs)', { timeout: 120_000 }, () => {
  it('starts at once; tool_search names the starting server, then finds and calls its tools once it is up', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'aibuddy-late-'));
    const startDir = mkdtempSync(join(tmpdir(), 'aibuddy-late-start-'));
    const demo = createModel('demo', {
      demoScript: {
        steps: [
          { toolCalls: [{ toolName: 'tool_search', input: { query: 'weather forecast' }, id: 'early' }] },
          { toolCalls: [{ toolName: 'tool_search', input: { query: 'weather forecast' }, id: 'late' }] },
          { toolCalls: [{ toolName: 'slow__get_forecast', input: { city: 'Oslo' }, id: 'call' }] },
          { text: 'forecast fetched' },
        ],
      },
    });
    // The second model call (whose search runs next) waits until the server is up.
    let agent: ComposedAgent | undefined;
    const events: AgentEvent[] = [];
    const warnings: string[] = [];
    const started = Date.now();
    let composedAfter = 0;
    let startingAtFirstStep: string[] = [];
    const result = await runTask({
      workspace,
      taskId: 'late',
      task: 'get a forecast',
      confirmation: chooseHostConfirmation({ flag: 'approve', interactive: false, demo: false }),
      model: gatedModel(demo, 2, () => agent),
      // 15 tools: deferred behind tool_search. It takes 8 s to start.
      mcpConfig: {
        mcpServers: {
          slow: {
            command: process.execPath,
            args: [
              TEST_SERVER,
              '--tools=15',
              `--start-dir=${startDir}`,
              '--start-ms=8000',
              '--instructions=Forecast temperatures are in kelvin.',
            ],
          },
        },
      },
      mcpStartWaitMs: 0,
      onComposed: (a) => {
        agent = a;
        composedAfter = Date.now() - started;
        startingAtFirstStep = a.mcpStarting();
      },
      onEvent: (e) => events.push(e),
      onWarning: (w) => warnings.push(w),
    });
    expect(composedAfter).toBeLessThan(6_000);
    expect(startingAtFirstStep).toEqual(['slow']);
    expect(agent?.mcpStarting()).toEqual([]);
    expect(result).toMatchObject({ status: 'completed', text: 'forecast fetched' });
    const resultOf = (id: string) =>
      events.find((e) => e.type === 'tool-result' && e.toolCallId === id) as { error?: unknown; model?: unknown } | undefined;
    const early = JSON.stringify(resultOf('early')?.model);
    expect(early).toMatch(/still starting: slow/);
    expect(early).not.toContain('slow__get_forecast');
    const late = JSON.stringify(resultOf('late')?.model);
    expect(late).toContain('slow__get_forecast');
    // Its server is deferred, and this model takes the activeTools path: the server's notes come with
    // the tools it finds, not in the system prompt of every step.
    expect(late).toContain('Forecast temperatures are in kelvin.');
    expect(resultOf('call')?.error).toBeUndefined();
    expect(JSON.stringify(resultOf('call')?.model)).toContain('get_forecast ok');
    const requests = events.filter((e) => e.type === 'model-request') as Array<{
      tools: string[];
      messages: Array<{ role: string; content: unknown }>;
    }>;
    // The run notes follow the servers: the system prompt stops saying the late server is starting and
    // says where its notes are.
    const systemOf = (i: number) => String(requests[i]!.messages.find((m) => m.role === 'system')?.content);
    expect(systemOf(0)).toMatch(/still starting: slow/);
    expect(systemOf(0)).not.toMatch(/usage notes of their servers/);
    expect(systemOf(2)).not.toMatch(/still starting/);
    expect(systemOf(2)).toMatch(/usage notes of their servers come with them/);
    for (let i = 0; i < requests.length; i++) expect(systemOf(i)).not.toContain('kelvin');
    expect(systemOf(2)).toMatch(/15 more tools are deferred/);
    expect(requests[0]!.tools).toContain('tool_search');
    expect(requests[0]!.tools.some((t) => t.startsWith('slow__'))).toBe(false);
    expect(requests[2]!.tools).toContain('slow__get_forecast');
    expect(warnings).toEqual([]);
  });

  it('a server that fails after the run began is reported as a warning', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'aibuddy-late-'));
    const warnings: string[] = [];
    let agent: ComposedAgent | undefined;
    const result = await runTask({
      workspace,
      taskId: 'late-fail',
      task: 'nothing',
      confirmation: chooseHostConfirmation({ flag: 'reject', interactive: false, demo: false }),
      // The only model call waits for the server's start to settle, so the failure happens mid-run.
      model: gatedModel(createModel('demo', { demoScript: { steps: [{ text: 'done' }] } }), 1, () => agent),
      // --exit-early exits 2 before the handshake: it fails after composition, which does not wait.
      mcpConfig: { mcpServers: { broken: { command: process.execPath, args: [TEST_SERVER, '--exit-early'] } } },
      mcpStartWaitMs: 0,
      onComposed: (a) => (agent = a),
      onWarning: (w) => warnings.push(w),
    });
    expect(result.status).toBe('completed');
    // Reported once, whether it arrived at composition or after.
    expect(warnings.filter((w) => /broken/.test(w))).toHaveLength(1);
    expect(warnings.join('\n')).toMatch(/API_TOKEN is not set[\s\S]*Fix: check the "broken" entry/);
  });
});
