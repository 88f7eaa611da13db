#!/usr/bin/env node
// A real-shaped MCP server over stdio for bench/scale: N tools named like real API tools
// (`<service>_<verb>_<noun>[_<k>]`), each with a sentence of description and a 3-5 property schema.
//   node fixture-server.mjs --tools=1250 --service=crm [--notes=CHARS]
// --notes=CHARS: usage notes (the initialize result's `instructions`) of that many characters.
// Tool calls answer with one line of text at once (the tool's own work is not what is measured).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureTools } from '../../tooling/test-utils/tool-catalog.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const count = Number(args.tools ?? 100);
const service = String(args.service ?? 'svc');

// The SDK is a dependency of packages/discovery; resolve it from there (bench/ is not a package).
const here = dirname(fileURLToPath(import.meta.url));
const req = createRequire(join(resolve(here, '../..'), 'packages/discovery/package.json'));
const { Server } = req('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = req('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = req('@modelcontextprotocol/sdk/types.js');

const tools = fixtureTools(service, count);
const names = new Set(tools.map((t) => t.name));
const notesChars = Number(args.notes ?? 0);
const notes =
  notesChars > 0 ? `Notes of ${service}: `.padEnd(notesChars, 'use ids, not names; ').slice(0, notesChars) : undefined;
const server = new Server(
  { name: `scale-${service}`, version: '1.0.0' },
  { capabilities: { tools: {} }, ...(notes ? { instructions: notes } : {}) },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: input = {} } = request.params;
  if (!names.has(name)) throw new Error(`unknown tool ${name}`);
  return { content: [{ type: 'text', text: `${name} done ${JSON.stringify(input)}` }] };
});
await server.connect(new StdioServerTransport());
