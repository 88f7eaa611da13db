// The measured runs: one "search, call the found tool, answer" conversation per provider path, driven by
// the real AI SDK providers against loopback Anthropic / OpenAI wire servers that script the model and
// keep every request body for counting.
import { anthropicCounts, openaiCounts } from './counts.mjs';
import {
  createAnthropic,
  createOpenAI,
  defer,
  discovery,
  functionCallItem,
  generateText,
  messageItem,
  runtime,
  startAnthropicWireServer,
  startOpenAIWireServer,
  stepCountIs,
  toolSearchCallItem,
  toolSearchOutputItem,
  toolSearchResultBlock,
} from './deps.mjs';

const anthropicModel = 'claude-sonnet-4-5';
const openaiModel = 'gpt-5.4';

/** The call settings for a catalog: plain tools, or what @aibuddy/defer chooses for `options.model`. */
function deferral(cat, withDeferral, options) {
  if (!withDeferral) return { settings: { tools: cat.tools }, path: 'none' };
  // discovery's tool_search, presented for the path defer will take, through the runtime: as a host wires it.
  const chosen = defer.chooseDeferPath({ ...options.model, override: options.override ?? 'auto' }).path;
  const config = discovery.createToolSearchConfig({ catalog: cat.catalog, presentation: defer.toolSearchPresentation(chosen) });
  const search = config
    .create({ services: {}, task: {} })
    .map((definition) => ({ configKey: config.key, core: true, definition }));
  const tools = { ...cat.tools, ...runtime.createAiTools(search, { heartbeatIntervalMs: 0 }) };
  const d = defer.createDeferredTools({ tools, decision: cat.decision, ...options });
  return { settings: d.callSettings, path: d.path };
}

/** Runs the conversation (at most 5 steps) and closes the wire server. */
async function drive(model, settings, server) {
  try {
    await generateText({ model, prompt: 'go', stopWhen: stepCountIs(5), ...settings });
  } finally {
    await server.close();
  }
}

/** One row of the report; `stable` says whether every step offered the same tools (false on activeTools). */
function runRow(label, api, path, bodies, first, after) {
  return {
    label,
    api,
    path,
    requests: bodies.length,
    first,
    after,
    stable: bodies.every((b) => JSON.stringify(b.tools) === JSON.stringify(bodies[0].tools)),
  };
}

/** Anthropic Messages: first request and the one after a search, with or without deferral. */
export async function runAnthropic(cat, label, { deferred: withDeferral, search, override, modelId = anthropicModel }) {
  const target = Object.keys(cat.tools).find((n) => n.startsWith('server3__'));
  const { settings, path } = deferral(cat, withDeferral, {
    model: { provider: 'anthropic', modelId },
    override,
    anthropicToolSearch: search,
  });
  const script = (body, index) => {
    if (index === 0) {
      if (!withDeferral) return { content: [{ type: 'tool_use', id: 'toolu_1', name: target, input: {} }] };
      if (search === 'bm25') {
        return {
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'x' } },
            toolSearchResultBlock('srvtoolu_1', [
              target,
              ...Object.keys(cat.tools)
                .filter((n) => n.startsWith('server4__'))
                .slice(0, 2),
            ]),
            { type: 'tool_use', id: 'toolu_1', name: target, input: {} },
          ],
        };
      }
      return {
        content: [
          { type: 'tool_use', id: 'toolu_0', name: 'tool_search', input: { query: `/^${target}$|^server4__/`, limit: 3 } },
        ],
      };
    }
    if (index === 1 && withDeferral && search !== 'bm25')
      return { content: [{ type: 'tool_use', id: 'toolu_1', name: target, input: {} }] };
    return { content: [{ type: 'text', text: 'done' }] };
  };
  const server = await startAnthropicWireServer(script);
  await drive(createAnthropic({ baseURL: server.baseURL, apiKey: 'bench' })(modelId), settings, server);
  const bodies = server.bodies();
  const first = anthropicCounts(bodies[0]);
  // After one search: the referenced definitions are loaded (native) or offered (activeTools).
  const referenced = (body) =>
    (body.messages ?? [])
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .flatMap((b) =>
        b.type === 'tool_result' && Array.isArray(b.content)
          ? b.content.filter((c) => c.type === 'tool_reference').map((c) => c.tool_name)
          : b.type === 'tool_search_tool_result'
            ? b.content.tool_references.map((r) => r.tool_name)
            : [],
      );
  const afterBody = bodies[1];
  const after = afterBody ? anthropicCounts(afterBody, path === 'anthropic-native' ? referenced(afterBody) : []) : undefined;
  return runRow(label, 'anthropic', path, bodies, first, after);
}

/** OpenAI Responses: first request and the one after a search, with or without deferral. */
export async function runOpenAI(cat, label, { deferred: withDeferral, override, baseURLThirdParty = false }) {
  const target = Object.keys(cat.tools).find((n) => n.startsWith('server3__'));
  const server = await startOpenAIWireServer({
    responses: (body, index) => {
      if (index === 0) {
        if (!withDeferral) return { output: [functionCallItem('fc_1', 'call_1', target, {})] };
        if (path === 'openai-native') {
          const ns = body.tools.find((t) => t.type === 'namespace' && t.name === 'server3');
          const loaded = ns.tools.filter((f) => f.name === target || f.name.startsWith('server3__')).slice(0, 3);
          return {
            output: [
              toolSearchCallItem('tsc_1', { query: 'x' }),
              toolSearchOutputItem('tso_1', [{ ...ns, tools: loaded }]),
              functionCallItem('fc_1', 'call_1', target, {}, 'server3'),
            ],
          };
        }
        return { output: [functionCallItem('fc_0', 'call_0', 'tool_search', { query: `/^${target}$|^server4__/`, limit: 3 })] };
      }
      if (index === 1 && withDeferral && path !== 'openai-native')
        return { output: [functionCallItem('fc_1', 'call_1', target, {})] };
      return { output: [messageItem('msg', 'done')] };
    },
  });
  // The wire server's script reads `path` only once requests arrive, after it is set here.
  const { settings, path } = deferral(cat, withDeferral, {
    model: { provider: 'openai', modelId: openaiModel, ...(baseURLThirdParty ? { baseURL: server.baseURL } : {}) },
    override,
  });
  await drive(createOpenAI({ baseURL: server.baseURL, apiKey: 'bench' }).responses(openaiModel), settings, server);
  const bodies = server.responsesBodies();
  const first = openaiCounts(bodies[0]);
  let after;
  if (bodies[1]) {
    // Hosted search: the loaded definitions are those of the tool_search_output (3 functions).
    after = openaiCounts(
      bodies[1],
      path === 'openai-native'
        ? Object.keys(cat.tools)
            .filter((n) => n.startsWith('server3__'))
            .slice(0, 3)
        : [],
    );
  }
  return runRow(label, 'openai', path, bodies, first, after);
}
