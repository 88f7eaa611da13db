// The benchmark catalog: 7 core tools + 5 MCP servers x 20 real RapidAPI endpoints from the toolbench
// set, as AI SDK tools, with the 10/30 gate's decision over them (all 100 MCP tools deferred).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { discovery, jsonSchema, tool } from './deps.mjs';

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

/** A fresh catalog (tools record their calls in `calls`), read from `<dataRoot>/toolbench/catalog.json`. */
export function buildCatalog(dataRoot) {
  const source = JSON.parse(readFileSync(join(dataRoot, 'toolbench/catalog.json'), 'utf8'));
  // 5 servers x 20 tools: the 5 largest toolkits would be tiny (toolkits average 3 tools), so take 100
  // real endpoints in catalog order, 20 per server, keeping each endpoint's own name, text and schema.
  const picked = source.filter((t) => t.description && t.description.length > 20).slice(0, 100);
  const tools = {};
  const gateInput = [];
  const calls = [];
  const searchable = [];
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
      const inputSchema = t.inputSchema?.type === 'object' ? t.inputSchema : { type: 'object', properties: {} };
      searchable.push({ name, description: t.description, inputSchema, server });
      tools[name] = tool({
        description: t.description,
        inputSchema: jsonSchema(inputSchema),
        execute: async (input) => {
          calls.push({ name, input });
          return { ok: true };
        },
      });
    }
    gateInput.push({ server, toolNames: names });
  }
  const decision = discovery.decideDeferral(gateInput);
  const deferred = new Set(decision.deferred.map((d) => d.name));
  // What tool_search searches: the deferred tools, as discovery's catalogue of them.
  const catalog = discovery.staticCatalog(searchable.filter((t) => deferred.has(t.name)));
  return { tools, decision, calls, picked, catalog };
}
