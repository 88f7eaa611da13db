import { generateText, stepCountIs, streamText } from 'ai';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { buildCatalog } from './__fixtures__/catalog.js';
import { createActiveSet } from '@aibuddy/discovery';
import { createDeferredTools, deferredServerNotes, toolSearchPresentation } from './create-deferred-tools.js';

const haiku = { provider: 'anthropic', modelId: 'claude-haiku-4-5' };
const offered = (call: { tools?: Array<{ name: string }> | undefined }) => (call.tools ?? []).map((t) => t.name).sort();

describe('createDeferredTools — activeTools path', () => {
  it('offers core + direct + tool_search first, and a found tool from the next step', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const catalog = buildCatalog({ servers: { slack: 3, github: 12 }, calls });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    expect(deferred.path).toBe('active-tools');
    expect(deferred.deferred).toHaveLength(12);

    const model = scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'create github issue', limit: 2 }, id: 's1' }] },
      { toolCalls: [{ toolName: 'github__create_issue', input: { title: 'Bug' }, id: 'c1' }] },
      { text: 'filed' },
    ]);
    const result = await generateText({ model, prompt: 'file a bug', stopWhen: stepCountIs(5), ...deferred.callSettings });
    expect(result.text).toBe('filed');

    const first = offered(model.calls[0]!);
    expect(first).toEqual([
      'execute',
      'read_file',
      'slack__create_message',
      'slack__get_message',
      'slack__list_message',
      'tool_search',
    ]);
    const second = offered(model.calls[1]!);
    expect(second).toContain('github__create_issue');
    expect(second.filter((n) => n.startsWith('github__')).length).toBeLessThanOrEqual(2);
    expect(calls).toEqual([{ name: 'github__create_issue', input: { title: 'Bug' } }]);

    // tool_search answered with the full schema of what it found.
    const search = model.calls[1]!.prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).find(
      (p) => p.type === 'tool-result',
    );
    expect(JSON.stringify(search)).toContain('issue_id');
    expect(deferred.activeSet.discovered()).toContain('github__create_issue');
  });

  it('answers a call to a known but undiscovered tool with a discovery error that says to search first', async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'github__close_issue', input: { title: 'x' }, id: 'bad' }] },
      { text: 'ok' },
    ]);
    await generateText({ model, prompt: 'close it', stopWhen: stepCountIs(3), ...deferred.callSettings });
    const result = lastToolResult(model, 'bad');
    expect(result?.output.type).toBe('error-text');
    expect(String(result?.output.value)).toBe(
      'Error repairing tool call: [discovery] github__close_issue: this tool exists (server "github") but is not loaded yet. ' +
        'Call tool_search first (for example with its name as the query); it can be called from the step after.',
    );
  });

  it('a found tool called in the same step as its search is told to call again now', async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    // The search runs after the step's calls are parsed, so mark it found first, as a parallel search would.
    deferred.activeSet.markDiscovered(['github__sync_issue']);
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'github__sync_issue', input: { title: 'x' }, id: 'p' }] },
      { text: 'ok' },
    ]);
    // activeTools fixed at the first step without it, as when the search ran in parallel.
    await generateText({
      model,
      prompt: 'go',
      stopWhen: stepCountIs(3),
      ...deferred.callSettings,
      prepareStep: () => ({ activeTools: ['tool_search'] }),
    });
    expect(String(lastToolResult(model, 'p')?.output.value)).toMatch(
      /\[discovery\] github__sync_issue: this tool was found in this step.*Call it again now/,
    );
  });

  it('an invalid regular expression in tool_search is a parameters error the model can fix', async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: '/([/' }, id: 'r' }] },
      { text: 'ok' },
    ]);
    await generateText({ model, prompt: 'go', stopWhen: stepCountIs(3), ...deferred.callSettings });
    const result = lastToolResult(model, 'r');
    expect(result?.output.type).toBe('error-text');
    expect(String(result?.output.value)).toMatch(/^\[parameters\] tool_search:/);
  });

  it('still reports unknown tools as the SDK does (no discovery claim for tools that do not exist)', async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    const model = scriptedModel([{ toolCalls: [{ toolName: 'no_such_tool', input: {}, id: 'x' }] }, { text: 'ok' }]);
    await generateText({ model, prompt: 'go', stopWhen: stepCountIs(3), ...deferred.callSettings });
    const result = lastToolResult(model, 'x');
    expect(String(result?.output.value)).not.toMatch(/discovery/);
    expect(String(result?.output.value)).toMatch(/no_such_tool/);
  });

  it('works the same under streamText', async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'delete issue' }, id: 's1' }] },
      { toolCalls: [{ toolName: 'github__delete_issue', input: { title: 't' }, id: 'c1' }] },
      { text: 'deleted' },
    ]);
    const result = streamText({ model, prompt: 'delete', stopWhen: stepCountIs(5), ...deferred.callSettings });
    expect(await result.text).toBe('deleted');
    expect(offered(model.calls[0]!)).not.toContain('github__delete_issue');
    expect(offered(model.calls[1]!)).toContain('github__delete_issue');
    expect(lastToolResult(model, 'c1')?.output).toMatchObject({ type: 'json', value: { ok: true } });
  });

  it('rebuilds from the history of a new run: a surviving call re-activates its tool, a compacted one does not', async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const history: ModelMessage[] = [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'old', toolName: 'github__list_issue', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'old',
            toolName: 'github__list_issue',
            output: { type: 'json', value: { ok: true } },
          },
        ],
      },
    ];
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    const model = scriptedModel([{ text: 'ok' }]);
    await generateText({ model, messages: [...history, { role: 'user', content: 'again' }], ...deferred.callSettings });
    const first = offered(model.calls[0]!);
    expect(first).toContain('github__list_issue');
    expect(first).not.toContain('github__create_issue');
    expect(deferred.activeSet.discovered()).toEqual(['github__list_issue']);
  });

  it('shares the host active set: what it already holds is offered at once', async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const activeSet = createActiveSet({
      core: catalog.core,
      direct: catalog.decision.direct,
      deferred: catalog.decision.deferred.map((d) => d.name),
    });
    activeSet.markDiscovered(['github__sync_issue']);
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku, activeSet });
    expect(deferred.callSettings.activeTools).toContain('github__sync_issue');
    expect(deferred.offeredToolNames()).toContain('github__sync_issue');
  });

  it('passes a small catalog through untouched: no search tool when nothing is deferred', () => {
    const catalog = buildCatalog({ servers: { slack: 3, github: 3 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    expect(Object.keys(deferred.callSettings.tools)).not.toContain('tool_search');
    expect(deferred.callSettings.activeTools).toBeUndefined();
    expect(deferred.reason).toMatch(/no tool is deferred/);
  });

  it('keeps the search tool when nothing is deferred yet but MCP servers are still starting', () => {
    const catalog = buildCatalog({ servers: { slack: 3 } });
    for (const path of ['active-tools', 'native'] as const) {
      const deferred = createDeferredTools({
        tools: catalog.tools,
        decision: { ...catalog.decision, starting: ['jira'] },
        model: haiku,
        override: path,
      });
      expect(Object.keys(deferred.callSettings.tools)).toContain('tool_search');
      expect(Object.keys(deferred.callSettings.tools).filter((n) => n.startsWith('slack'))).toHaveLength(3);
      expect(deferred.callSettings.activeTools).toBeUndefined();
    }
  });

  it('tools offered directly stay offered when servers that came up later defer them (refresh)', async () => {
    const small = buildCatalog({ servers: { slack: 3 } });
    // github's 30 tools arrive: 33 in all, over the total gate, so slack's tools are deferred too.
    const big = buildCatalog({ servers: { slack: 3, github: 30 } });
    const slackNames = small.decision.direct;
    expect(big.decision.deferred.map((d) => d.name)).toEqual(expect.arrayContaining(slackNames));
    let arrived = false;
    const deferred = createDeferredTools({
      tools: small.tools,
      decision: { ...small.decision, starting: ['github'] },
      model: haiku,
      refresh: () => (arrived ? { tools: big.tools, decision: big.decision } : undefined),
    });
    expect(deferred.offeredToolNames()).toEqual(expect.arrayContaining([...slackNames, 'tool_search']));
    arrived = true;
    const step = (await deferred.callSettings.prepareStep({ steps: [], stepNumber: 1, messages: [] } as never)) as {
      activeTools?: string[];
    };
    expect(step.activeTools).toEqual(expect.arrayContaining([...slackNames, 'tool_search']));
    expect(step.activeTools?.some((n) => n.startsWith('github'))).toBe(false);
  });

  it('warns about names in the decision that are missing from the tool set', () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const decision = {
      ...catalog.decision,
      deferred: [...catalog.decision.deferred, { name: 'ghost__x', server: 'ghost', reason: 'r' }],
    };
    const deferred = createDeferredTools({ tools: catalog.tools, decision, model: haiku });
    expect(deferred.warnings).toEqual(['deferred tool "ghost__x" (server "ghost") is not in the tool set; ignored']);
  });

  it('warns when the host active set does not know the deferred tools', () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const deferred = createDeferredTools({
      tools: catalog.tools,
      decision: catalog.decision,
      model: haiku,
      activeSet: createActiveSet({ core: catalog.core }),
    });
    expect(deferred.warnings[0]).toMatch(
      /^the active set does not list 12 deferred tool\(s\) \(github__create_issue, github__list_issue, github__get_issue, \.\.\.\)/,
    );
  });
});

describe('createDeferredTools — composing with the host', () => {
  it("runs the host's prepareStep first: its rebuilt messages feed the history scan, its activeTools narrow ours", async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const rebuilt: ModelMessage[] = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'k', toolName: 'github__assign_issue', input: {} }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'k', toolName: 'github__assign_issue', output: { type: 'text', value: 'ok' } },
        ],
      },
      { role: 'user', content: 'go on' },
    ];
    const seen: number[] = [];
    const deferred = createDeferredTools({
      tools: catalog.tools,
      decision: catalog.decision,
      model: haiku,
      prepareStep: ({ stepNumber }) => {
        seen.push(stepNumber);
        return { messages: rebuilt, activeTools: ['tool_search', 'read_file', 'github__assign_issue'] };
      },
    });
    const model = scriptedModel([{ text: 'ok' }]);
    await generateText({ model, prompt: 'x', ...deferred.callSettings });
    expect(seen).toEqual([0]);
    expect(offered(model.calls[0]!)).toEqual(['github__assign_issue', 'read_file', 'tool_search']);
    expect(model.calls[0]!.prompt.at(-1)).toMatchObject({ role: 'user' });
    expect(deferred.loadedToolNames()).toContain('github__assign_issue');
  });

  it("keeps the host's prepareStep result on native paths (and never touches the tool array)", async () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const deferred = createDeferredTools({
      tools: catalog.tools,
      decision: catalog.decision,
      model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
      prepareStep: () => ({ system: 'from the host' }),
    });
    const model = scriptedModel([{ text: 'ok' }]);
    await generateText({ model, prompt: 'x', ...deferred.callSettings });
    expect(model.calls[0]!.prompt[0]).toMatchObject({ role: 'system', content: 'from the host' });
    expect(offered(model.calls[0]!)).toHaveLength(2 + 12 + 1);
    expect(deferred.loadedToolNames().sort()).toEqual(['execute', 'read_file', 'tool_search']);
  });
});

describe('createDeferredTools — native settings', () => {
  it('Anthropic: every tool stays, deferLoading on exactly the deferred ones, plus tool_search', () => {
    const catalog = buildCatalog({ servers: { slack: 3, github: 12 } });
    const deferred = createDeferredTools({
      tools: catalog.tools,
      decision: catalog.decision,
      model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
    });
    expect(deferred.path).toBe('anthropic-native');
    const tools = deferred.callSettings.tools;
    expect(Object.keys(tools)).toHaveLength(2 + 3 + 12 + 1);
    const flagged = Object.entries(tools)
      .filter(([, t]) => (t.providerOptions as any)?.anthropic?.deferLoading === true)
      .map(([n]) => n);
    expect(flagged.sort()).toEqual(catalog.decision.deferred.map((d) => d.name).sort());
    expect(deferred.callSettings.activeTools).toBeUndefined();
  });

  it('Anthropic server-side variants use the provider tools', () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    for (const [kind, id] of [
      ['bm25', 'anthropic.tool_search_bm25_20251119'],
      ['regex', 'anthropic.tool_search_regex_20251119'],
    ] as const) {
      const deferred = createDeferredTools({
        tools: catalog.tools,
        decision: catalog.decision,
        model: { provider: 'anthropic', modelId: 'claude-opus-4-5' },
        anthropicToolSearch: kind,
      });
      expect((deferred.callSettings.tools.tool_search as { id?: string }).id).toBe(id);
    }
  });

  it('OpenAI: one namespace per server, deferLoading on deferred functions, hosted tool_search', () => {
    const catalog = buildCatalog({ servers: { slack: 3, github: 12 } });
    const deferred = createDeferredTools({
      tools: catalog.tools,
      decision: catalog.decision,
      model: { provider: 'openai', modelId: 'gpt-5.4' },
      serverDescriptions: { github: 'GitHub issues and pull requests.' },
    });
    expect(deferred.path).toBe('openai-native');
    const opts = (name: string) => (deferred.callSettings.tools[name]!.providerOptions as any)?.openai;
    expect(opts('github__create_issue')).toEqual({
      namespace: { name: 'github', description: 'GitHub issues and pull requests.' },
      deferLoading: true,
    });
    expect(opts('slack__list_message')).toEqual({
      namespace: { name: 'slack', description: 'Tools of the "slack" MCP server.' },
    });
    expect(opts('read_file')).toBeUndefined();
    expect((deferred.callSettings.tools.tool_search as { id?: string }).id).toBe('openai.tool_search');
  });

  it('OpenAI: a server name that is not a valid namespace name is made one', () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const decision = { ...catalog.decision, deferred: catalog.decision.deferred.map((d) => ({ ...d, server: 'git.hub' })) };
    const deferred = createDeferredTools({ tools: catalog.tools, decision, model: { provider: 'openai', modelId: 'gpt-5.4' } });
    expect((deferred.callSettings.tools.github__get_issue!.providerOptions as any).openai.namespace.name).toBe('git_hub');
  });
});

describe('deferredServerNotes', () => {
  it("sends deferred servers' notes with tool_search results only where our search answers in text", () => {
    const paths = ['active-tools', 'anthropic-native', 'openai-native'] as const;
    expect(paths.map((p) => deferredServerNotes(p))).toEqual(['tool-search', 'instructions', 'instructions']);
    // Never where the results are tool_reference blocks.
    for (const p of paths)
      if (toolSearchPresentation(p) === 'tool-reference') expect(deferredServerNotes(p)).toBe('instructions');
  });
});
