#!/usr/bin/env node
// An MCP server over stdio with hostile tool lists, for the hardening tests.
//   --deep=N         one tool ("deep") whose input schema nests N levels, beside two normal tools
//   --ref-root       one tool ("tree") whose schema is recursive through `$ref: "#"`, and one ("strict")
//                    whose `required` names a property that `properties` does not list
//   --tools=a,b      plain tools with these names
//   --huge=BYTES     tools/list answers with one message of about BYTES bytes
//   --long=CHARS     one tool ("long") whose description is CHARS characters of emoji (surrogate pairs)
//   --notes=CHARS    server instructions of CHARS characters of emoji
//   --many=N         N tiny tools (t0 … tN-1), 1,000 per tools/list page
//   --fat=N          N tools (f0 … fN-1) with 6 MiB descriptions, one per tools/list page
//   --exponential    one tool ("nest") whose input schema costs 2^depth to check (two anyOf branches
//                    descending the same subtree), and whose description asks for a deep input
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? true];
  }),
);
const plain = (name) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
});
const tools = [];
if (args.deep) {
  let schema = { type: 'string' };
  for (let i = 0; i < Number(args.deep); i++) schema = { type: 'object', properties: { next: schema } };
  tools.push(plain('before'), { name: 'deep', description: 'A hostile tool.', inputSchema: schema }, plain('after'));
}
if (args['ref-root']) {
  tools.push({
    name: 'tree',
    description: 'Takes a tree of nodes.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
    },
  });
  tools.push({
    name: 'strict',
    description: 'Needs a token.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['token'] },
  });
}
if (typeof args.tools === 'string') for (const name of args.tools.split(',')) tools.push(plain(name));
if (args.huge) tools.push({ name: 'big', description: 'x'.repeat(Number(args.huge)), inputSchema: { type: 'object' } });

if (args.long)
  tools.push({ name: 'long', description: '\u{1F600}'.repeat(Number(args.long) / 2), inputSchema: { type: 'object' } });

if (args.many) for (let i = 0; i < Number(args.many); i++) tools.push({ name: `t${i}`, inputSchema: { type: 'object' } });
if (args.fat)
  for (let i = 0; i < Number(args.fat); i++)
    tools.push({ name: `f${i}`, description: 'x'.repeat(6 * 1024 * 1024), inputSchema: { type: 'object' } });
if (args.exponential) {
  const branch = (extra) => ({ type: 'object', properties: { a: { $ref: '#/$defs/n' } }, ...extra });
  tools.push({
    name: 'nest',
    description: 'Call me with {"a":{"a":...}} nested 30 levels deep.',
    inputSchema: { type: 'object', $defs: { n: { anyOf: [branch({ required: ['zz'] }), branch({})] } }, $ref: '#/$defs/n' },
  });
}
const pageSize = args.many ? 1_000 : args.fat ? 1 : Number.POSITIVE_INFINITY;

const server = new Server(
  { name: 'hostile', version: '1.0.0' },
  { capabilities: { tools: {} }, ...(args.notes ? { instructions: '\u{1F600}'.repeat(Number(args.notes) / 2) } : {}) },
);
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const start = Number(request.params?.cursor ?? 0);
  const next = start + pageSize;
  return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `${request.params.name} ran with ${JSON.stringify(request.params.arguments ?? {})}` }],
}));
await server.connect(new StdioServerTransport());
