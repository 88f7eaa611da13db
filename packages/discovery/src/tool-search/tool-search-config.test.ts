import { generateText, stepCountIs } from 'ai';
import { createAiTools } from '@aibuddy/runtime';
import { resolveToolSet } from '@aibuddy/registry';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createActiveSet } from '../active-set/active-set.js';
import { staticCatalog } from '../catalog.js';
import type { CatalogTool } from '../catalog.js';
import { closeAll, connect, fixture } from '../__fixtures__/mcp-helpers.js';
import { createToolSearchConfig, parseSlashRegex } from './tool-search-config.js';
import type { ToolSearchResult } from './tool-search-config.js';

afterEach(closeAll);

const tool = (name: string, description: string, server = 'crm', props: string[] = ['id']): CatalogTool => ({
  name,
  description,
  server,
  inputSchema: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) },
});

const catalog = staticCatalog([
  tool('crm__create_contact', 'Create a contact person in the CRM.', 'crm', ['email', 'first_name']),
  tool('crm__delete_contact', 'Delete a contact from the CRM.'),
  tool('mail__send_email', 'Send an email to a recipient.', 'mail', ['to', 'subject']),
  tool('mail__search_email', 'Search emails in the inbox.', 'mail', ['query']),
  tool('git__create_issue', 'Open an issue in a repository.', 'git', ['repo', 'title']),
  tool('git__list_issues', 'List the issues of a repository.', 'git', ['repo']),
]);

async function search(
  input: Record<string, unknown>,
  active = createActiveSet({ deferred: catalog.deferredTools().map((t) => t.name) }),
) {
  const set = await resolveToolSet({ configs: [createToolSearchConfig({ catalog, activeSet: active })] });
  const definition = set.tools[0]!.definition;
  const validation = await definition.validate(input);
  if (!validation.success) throw new Error(JSON.stringify(validation.issues));
  return { result: (await definition.execute(validation.value, {} as never)) as ToolSearchResult, active };
}

describe('tool_search', () => {
  it('returns full schemas of the best matches and marks them discovered', async () => {
    const { result, active } = await search({ query: 'send an email message', limit: 2 });
    expect(result.mode).toBe('text');
    expect(result.tools[0]).toMatchObject({
      name: 'mail__send_email',
      server: 'mail',
      inputSchema: { properties: { to: {}, subject: {} } },
    });
    expect(result.tools.length).toBeLessThanOrEqual(2);
    expect(active.discovered()).toEqual(result.tools.map((t) => t.name));
  });

  it('takes a regular expression as /pattern/flags or with regex: true', async () => {
    const slash = (await search({ query: '/^git__.*ISSUE/i' })).result;
    expect(slash.mode).toBe('regex');
    expect(slash.tools.map((t) => t.name).sort()).toEqual(['git__create_issue', 'git__list_issues']);
    const flag = (await search({ query: '(?i)CONTACT', regex: true })).result;
    expect(flag.tools.map((t) => t.name).sort()).toEqual(['crm__create_contact', 'crm__delete_contact']);
    expect(parseSlashRegex('/a+b/')).toBe('a+b');
    expect(parseSlashRegex('/x/i')).toBe('(?i)x');
    expect(parseSlashRegex('send email')).toBeUndefined();
  });

  it('an invalid pattern is a parameters error the model can fix', async () => {
    const error = await search({ query: '/([unclosed/' }).catch((e: unknown) => e);
    expect((error as { stage?: string }).stage).toBe('parameters');
    expect((error as Error).message).toMatch(/^\[parameters\] tool_search:/);
  });

  it('yields nothing, with a reason, when no tool is deferred', async () => {
    const set = await resolveToolSet({ configs: [createToolSearchConfig({ catalog: staticCatalog([]) })] });
    expect(set.tools).toEqual([]);
    expect(set.excluded).toEqual([
      { key: 'tool_search', reason: 'no deferred tools in this run: every tool is already in the tool set' },
    ]);
  });

  it("uses the run's services.activeSet when none is given", async () => {
    const active = createActiveSet({ deferred: ['mail__send_email'] });
    const set = await resolveToolSet({ configs: [createToolSearchConfig({ catalog })], services: { activeSet: active } });
    await set.tools[0]!.definition.execute({ query: 'mail__send_email' }, {} as never);
    expect(active.discovered()).toEqual(['mail__send_email']);
    expect(set.instructions[0]?.text).toMatch(/6 more tools are deferred.*crm \(2\), mail \(2\), git \(2\)/);
  });
});

describe('tool_search end to end: generateText, a real MCP server, and the active set', () => {
  it('a found tool joins the tool set from the next step and runs on the server', async () => {
    const m = await connect({ big: fixture('--tools=11'), small: fixture('--tools=2') });
    const decision = m.decision();
    const active = createActiveSet({
      core: ['tool_search'],
      direct: decision.direct,
      deferred: decision.deferred.map((d) => d.name),
      isAvailable: m.isAvailable,
    });
    const resolved = await resolveToolSet({
      configs: [createToolSearchConfig({ catalog: m }), ...m.toolConfigs()],
      services: { activeSet: active },
    });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'convert money between currencies' }, id: 's1' }] },
      { toolCalls: [{ toolName: 'big__convert_currency', input: { amount: '5', from: 'EUR', to: 'USD' }, id: 'c1' }] },
      { text: 'done' },
    ]);
    const result = await generateText({
      model,
      tools: createAiTools(resolved),
      prompt: 'convert 5 EUR to USD',
      prepareStep: () => ({ activeTools: active.names() }),
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('done');
    const offered = model.calls.map((c) => (c.tools ?? []).map((t) => t.name));
    expect(offered[0]).toEqual(['tool_search', 'small__get_weather', 'small__get_forecast']);
    expect(offered[1]).toContain('big__convert_currency');
    const found = lastToolResult(model, 's1')?.output.value as ToolSearchResult;
    expect(found.tools[0]?.name).toBe('big__convert_currency');
    expect(found.tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { amount: {}, from: {}, to: {} } });
    expect(lastToolResult(model, 'c1')?.output).toEqual({
      type: 'text',
      value: 'convert_currency ok {"amount":"5","from":"EUR","to":"USD"}',
    });

    // A new run over the surviving history finds the tools of the tool_search result active again...
    const next = createActiveSet({
      core: ['tool_search'],
      direct: decision.direct,
      deferred: decision.deferred.map((d) => d.name),
    });
    expect(next.rebuildFromHistory(result.response.messages)).toEqual(found.tools.map((t) => t.name));
    // ...and with that result compacted away, only the tool that was actually called.
    const withoutSearch = result.response.messages.filter(
      (msg) => !(Array.isArray(msg.content) && msg.content.some((p) => 'toolName' in p && p.toolName === 'tool_search')),
    );
    expect(next.rebuildFromHistory(withoutSearch)).toEqual(['big__convert_currency']);
  });
});
