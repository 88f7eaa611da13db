#!/usr/bin/env node
// Tool-definition tokens per request, with and without deferral, on each path of @aibuddy/defer,
// measured on the REQUEST BODIES the real AI SDK providers send to loopback Anthropic / OpenAI servers.
// Then: the Anthropic search choice (our engine vs plain BM25, the stand-in for Anthropic's
// server-side BM25, which cannot be called from here) on every bench-data set.
//
//   pnpm --filter @aibuddy/defer... build && node bench/defer-tokens/run.mjs [--json]
//
// Catalog: 7 core tools + 5 MCP servers x 20 tools (real RapidAPI endpoints from the toolbench set,
// 20 per server) = 107 tools; the 10/30 gate defers all 100 MCP tools (100 > 30).
// Tokens: tiktoken o200k_base over each tool definition's JSON exactly as found in the request body.
//   wire    = every definition in the request body
//   context = what the model is given: on native paths definitions with defer_loading are not loaded
//             (Anthropic and OpenAI load them only when a search references them); OpenAI namespaces
//             count their name + description. After a search, the definitions it loaded are added.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const dataRoot = resolve(process.env.AIBUDDY_BENCH_DATA ?? resolve(repoRoot, '../shared/bench-data'));
const asJson = process.argv.includes('--json');

const deferPkg = join(repoRoot, 'packages/defer');
const req = createRequire(join(deferPkg, 'package.json'));
/** Imports a dependency of packages/defer through its ESM entry (the same instance defer's dist uses). */
async function importDep(name) {
  let dir = dirname(req.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name)
    dir = dirname(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entry = pkg.exports?.['.']?.import ?? pkg.module ?? pkg.main;
  return import(pathToFileURL(join(dir, typeof entry === 'string' ? entry : entry.default)).href);
}
const need = (path) => {
  if (!existsSync(path)) {
    console.error(`missing ${path}: run \`pnpm --filter @aibuddy/defer... build\` first`);
    process.exit(1);
  }
  return pathToFileURL(path).href;
};

const { generateText, stepCountIs, tool, jsonSchema } = await importDep('ai');
const { createAnthropic } = await importDep('@ai-sdk/anthropic');
const { createOpenAI } = await importDep('@ai-sdk/openai');
const { get_encoding } = req('tiktoken');
const defer = await import(need(join(deferPkg, 'dist/index.js')));
const { startAnthropicWireServer, toolSearchResultBlock } = await import(
  need(join(deferPkg, 'dist/testing/anthropic-wire-server.js'))
);
const { startOpenAIWireServer, functionCallItem, messageItem, toolSearchCallItem, toolSearchOutputItem } = await import(
  need(join(deferPkg, 'dist/testing/openai-wire-server.js'))
);
const discovery = await import(need(join(repoRoot, 'packages/discovery/dist/index.js')));

const enc = get_encoding('o200k_base');
const tokens = (value) => enc.encode(JSON.stringify(value)).length;

// ---------------------------------------------------------------- catalog
const CORE = [
  [
    'read_file',
    'Reads a text file of the workspace. Returns numbered lines; use offset and limit for large files.',
    {
      path: { type: 'string', description: 'Path relative to the workspace root.' },
      offset: { type: 'integer', description: 'First line (1-based).' },
      limit: { type: 'integer', description: 'Number of lines.' },
    },
    ['path'],
  ],
  [
    'write_file',
    'Writes a file of the workspace, creating parent folders. Replaces the file atomically.',
    {
      path: { type: 'string', description: 'Path relative to the workspace root.' },
      content: { type: 'string', description: 'The full new content.' },
    },
    ['path', 'content'],
  ],
  [
    'edit_file',
    'Replaces exact text in a file. Fails when oldText is not found or is ambiguous unless replaceAll is set.',
    {
      path: { type: 'string' },
      oldText: { type: 'string', description: 'Exact text to replace.' },
      newText: { type: 'string', description: 'Replacement.' },
      replaceAll: { type: 'boolean' },
    },
    ['path', 'oldText', 'newText'],
  ],
  [
    'ls',
    'Lists a folder of the workspace: names, types and sizes.',
    { path: { type: 'string', description: 'Folder, default the root.' } },
    [],
  ],
  [
    'glob',
    'Finds files by glob pattern, newest first.',
    { pattern: { type: 'string', description: 'For example src/**/*.ts' }, path: { type: 'string' }, limit: { type: 'integer' } },
    ['pattern'],
  ],
  [
    'grep',
    'Searches file contents with a regular expression; returns matching lines with paths and line numbers.',
    { pattern: { type: 'string' }, path: { type: 'string' }, glob: { type: 'string' }, limit: { type: 'integer' } },
    ['pattern'],
  ],
  [
    'execute',
    'Runs a shell command in the workspace with a timeout. Output keeps the head and tail (30,000 characters), the exit code and the duration.',
    {
      command: { type: 'string', description: 'The command line.' },
      cwd: { type: 'string' },
      timeoutMs: { type: 'integer', description: 'Timeout in milliseconds.' },
    },
    ['command'],
  ],
];

function buildCatalog() {
  const source = JSON.parse(readFileSync(join(dataRoot, 'toolbench/catalog.json'), 'utf8'));
  // 5 servers x 20 tools: the 5 largest toolkits would be tiny (toolkits average 3 tools), so take 100
  // real endpoints in catalog order, 20 per server, keeping each endpoint's own name, text and schema.
  const picked = source.filter((t) => t.description && t.description.length > 20).slice(0, 100);
  const tools = {};
  const gateInput = [];
  const calls = [];
  for (const [name, description, properties, required] of CORE) {
    tools[name] = tool({
      description,
      inputSchema: jsonSchema({ type: 'object', properties, required }),
      execute: async () => ({ ok: true }),
    });
  }
  for (let s = 0; s < 5; s++) {
    const server = `server${s + 1}`;
    const names = [];
    for (const t of picked.slice(s * 20, s * 20 + 20)) {
      const name = discovery.namespaceToolName
        ? discovery.namespaceToolName(server, t.name)
        : `${server}__${t.name}`.slice(0, 64);
      names.push(name);
      tools[name] = tool({
        description: t.description,
        inputSchema: jsonSchema(t.inputSchema?.type === 'object' ? t.inputSchema : { type: 'object', properties: {} }),
        execute: async (input) => {
          calls.push({ name, input });
          return { ok: true };
        },
      });
    }
    gateInput.push({ server, toolNames: names });
  }
  return { tools, decision: discovery.decideDeferral(gateInput), calls, picked };
}

// ---------------------------------------------------------------- token accounting
function anthropicCounts(body, loaded = []) {
  let wire = 0;
  let context = 0;
  const byName = new Map();
  for (const t of body.tools ?? []) {
    const n = tokens(t);
    wire += n;
    byName.set(t.name, n);
    if (t.defer_loading !== true) context += n;
  }
  for (const name of loaded) context += byName.get(name) ?? 0;
  return { wire, context, offered: (body.tools ?? []).filter((t) => t.defer_loading !== true).length };
}

function openaiCounts(body, loaded = []) {
  let wire = 0;
  let context = 0;
  let offered = 0;
  const byName = new Map();
  for (const t of body.tools ?? []) {
    wire += tokens(t);
    if (t.type === 'namespace') {
      context += tokens({ type: t.type, name: t.name, description: t.description });
      for (const f of t.tools) {
        byName.set(f.name, tokens(f));
        if (f.defer_loading !== true) {
          context += tokens(f);
          offered++;
        }
      }
    } else {
      byName.set(t.name, tokens(t));
      if (t.defer_loading !== true) {
        context += tokens(t);
        offered++;
      }
    }
  }
  for (const name of loaded) context += byName.get(name) ?? 0;
  return { wire, context, offered };
}

// ---------------------------------------------------------------- runs
const anthropicModel = 'claude-sonnet-4-5';
const openaiModel = 'gpt-5.4';

async function runAnthropic(label, { deferred: withDeferral, search, override, modelId = anthropicModel }) {
  const cat = buildCatalog();
  const target = Object.keys(cat.tools).find((n) => n.startsWith('server3__'));
  let settings;
  let path = 'none';
  if (withDeferral) {
    const d = defer.createDeferredTools({
      tools: cat.tools,
      decision: cat.decision,
      model: { provider: 'anthropic', modelId },
      override,
      anthropicToolSearch: search,
    });
    settings = d.callSettings;
    path = d.path;
  } else settings = { tools: cat.tools };
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
  try {
    await generateText({
      model: createAnthropic({ baseURL: server.baseURL, apiKey: 'bench' })(modelId),
      prompt: 'go',
      stopWhen: stepCountIs(5),
      ...settings,
    });
  } finally {
    await server.close();
  }
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
  return {
    label,
    api: 'anthropic',
    path,
    requests: bodies.length,
    first,
    after,
    stable: bodies.every((b) => JSON.stringify(b.tools) === JSON.stringify(bodies[0].tools)),
  };
}

async function runOpenAI(label, { deferred: withDeferral, override, baseURLThirdParty = false }) {
  const cat = buildCatalog();
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
  let settings;
  let path = 'none';
  if (withDeferral) {
    const d = defer.createDeferredTools({
      tools: cat.tools,
      decision: cat.decision,
      model: { provider: 'openai', modelId: openaiModel, ...(baseURLThirdParty ? { baseURL: server.baseURL } : {}) },
      override,
    });
    settings = d.callSettings;
    path = d.path;
  } else settings = { tools: cat.tools };
  try {
    await generateText({
      model: createOpenAI({ baseURL: server.baseURL, apiKey: 'bench' }).responses(openaiModel),
      prompt: 'go',
      stopWhen: stepCountIs(5),
      ...settings,
    });
  } finally {
    await server.close();
  }
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
  return {
    label,
    api: 'openai',
    path,
    requests: bodies.length,
    first,
    after,
    stable: bodies.every((b) => JSON.stringify(b.tools) === JSON.stringify(bodies[0].tools)),
  };
}

const runs = [
  await runAnthropic('Anthropic, no deferral (baseline)', { deferred: false }),
  await runAnthropic('Anthropic native, our tool_search + tool_reference', {
    deferred: true,
    search: 'client',
    override: 'auto',
  }),
  await runAnthropic('Anthropic native, server-side BM25', { deferred: true, search: 'bm25', override: 'auto' }),
  await runAnthropic('Anthropic Haiku -> activeTools', { deferred: true, override: 'auto', modelId: 'claude-haiku-4-5' }),
  await runOpenAI('OpenAI Responses, no deferral (baseline)', { deferred: false }),
  await runOpenAI('OpenAI native (namespaces + hosted tool_search)', { deferred: true, override: 'auto' }),
  await runOpenAI('OpenAI on a third-party URL -> activeTools', { deferred: true, override: 'auto', baseURLThirdParty: true }),
];

// ---------------------------------------------------------------- search choice (Anthropic native)
const KMAX = 10;
function evaluate(q, ranked) {
  const slots = (q.gold_any ?? q.gold.map((g) => [g])).map((alts) => new Set(alts));
  const at = new Array(slots.length).fill(Infinity);
  let dcg = 0;
  ranked.forEach((name, r) => {
    for (let s = 0; s < slots.length; s++) {
      if (at[s] === Infinity && slots[s].has(name)) {
        at[s] = r;
        if (r < 5) dcg += 1 / Math.log2(r + 2);
        break;
      }
    }
  });
  let idcg = 0;
  for (let r = 0; r < Math.min(5, slots.length); r++) idcg += 1 / Math.log2(r + 2);
  return {
    'Recall@1': at.filter((r) => r < 1).length / slots.length,
    'Recall@5': at.filter((r) => r < 5).length / slots.length,
    'NDCG@5': dcg / idcg,
    'Hit@1': ranked.length && slots.some((s) => s.has(ranked[0])) ? 1 : 0,
  };
}
const searchRows = [];
for (const set of readdirSync(dataRoot)
  .filter((d) => existsSync(join(dataRoot, d, 'catalog.json')))
  .sort()) {
  const dir = join(dataRoot, set);
  const baseline = JSON.parse(
    execFileSync(process.execPath, [join(dataRoot, 'bm25-baseline.mjs'), dir, '--json'], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }),
  );
  const catalog = JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8'));
  const queries = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8'));
  const index = discovery.createToolIndex(catalog);
  const sums = {};
  for (const q of queries) {
    const m = evaluate(
      q,
      index.search(q.query, { limit: KMAX }).map((h) => h.name),
    );
    for (const [k, v] of Object.entries(m)) sums[k] = (sums[k] ?? 0) + v;
  }
  const ours = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / queries.length]));
  searchRows.push({ set, tools: catalog.length, queries: queries.length, bm25: baseline.metrics, ours });
}

// ---------------------------------------------------------------- report
const base = { anthropic: runs[0].first.context, openai: runs[4].first.context };
if (asJson) {
  console.log(JSON.stringify({ runs, searchRows }, null, 2));
} else {
  const pct = (x, b) => `${(100 * (1 - x / b)).toFixed(1)}%`;
  console.log('Tool-definition tokens per request (tiktoken o200k_base), 7 core tools + 5 MCP servers x 20 tools');
  console.log('(request bodies captured at loopback servers; "context" = definitions the model is given)\n');
  console.log(
    'run'.padEnd(52) +
      'path'.padEnd(18) +
      'offered'.padStart(8) +
      'wire'.padStart(8) +
      'context'.padStart(9) +
      '  cut vs baseline' +
      '   after 1 search' +
      '  requests' +
      '  same tools every step',
  );
  for (const r of runs) {
    const b = base[r.api];
    const after = r.after && r.path !== 'none' ? `${r.after.context} (${pct(r.after.context, b)})` : '-';
    console.log(
      r.label.padEnd(52) +
        r.path.padEnd(18) +
        String(r.first.offered).padStart(8) +
        String(r.first.wire).padStart(8) +
        String(r.first.context).padStart(9) +
        (r.path === 'none' ? '  (baseline)      ' : `  ${pct(r.first.context, b).padStart(8)}        `) +
        after.padStart(17) +
        String(r.requests).padStart(10) +
        `  ${r.stable ? 'yes' : 'no (activeTools)'}`,
    );
  }
  console.log(
    '\nwire: every definition in the body (native paths send deferred ones too, flagged defer_loading).' +
      '\nafter 1 search: the second request, with the 3 found definitions loaded (native) or offered (activeTools);' +
      '\n  on activeTools the search result in the messages repeats those schemas once more.' +
      '\nrequests: model calls for "search, call the found tool, answer" (a server-side search saves one).',
  );
  console.log('\nAnthropic search choice: our engine (createToolIndex) vs plain BM25 (stand-in for Anthropic server-side BM25)');
  console.log(
    'set'.padEnd(16) +
      'tools'.padStart(6) +
      '  ' +
      ['Recall@1', 'Recall@5', 'NDCG@5', 'Hit@1'].map((m) => `${m} bm25/ours`.padStart(22)).join(''),
  );
  for (const row of searchRows) {
    console.log(
      row.set.padEnd(16) +
        String(row.tools).padStart(6) +
        '  ' +
        ['Recall@1', 'Recall@5', 'NDCG@5', 'Hit@1']
          .map((m) => `${row.bm25[m].toFixed(3)} / ${row.ours[m].toFixed(3)}`.padStart(22))
          .join(''),
    );
  }
}
enc.free();
