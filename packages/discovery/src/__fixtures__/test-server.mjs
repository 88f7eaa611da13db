#!/usr/bin/env node
// A small MCP server over stdio for integration tests, built with @modelcontextprotocol/sdk.
//   --tools=N        offer the first N tools of the catalog (plus the special tools below)
//   --page-size=K    paginate tools/list, K tools per page
//   --special        also offer: fail_tool (isError), crash_tool (process exits mid-call),
//                    slow_tool (answers after `ms`), add_tool (adds a tool, optionally removes the tool
//                    named by `remove`, sends list_changed)
//   --flood          also offer: flood (sends `count` list_changed at once), list_count (how many
//                    tools/list requests the server has answered)
//   --hang           write to stderr, then never answer (start-up timeout test)
//   --exit-early     write to stderr, then exit 2 before the handshake
//   --bad-schema     one tool has a non-object input schema
//   --annotated      also offer tools with annotations: read_notes (read-only), delete_note
//                    (destructive), add_note (writes, not destructive), odd_hints (hints of the wrong type)
//   --structured     also offer tools with an output schema: count_items (answers by `mode`: "good"
//                    matches its schema, "bad" does not, "missing" has no structured content, "error"
//                    is an isError result; each call appends a line to --calls-file, when given) and
//                    odd_output (an output schema that is not an object schema)
//   --examples       also offer recipe_auto_complete and shop_auto_complete: twins but for the example
//                    values of their schemas (a default, an examples list)
//   --instructions=T the server's usage notes (initialize result)
//   --stubborn       ignores SIGTERM and the end of stdin (only SIGKILL ends it)
//   --start-dir=D    a slow start: leaves a marker file in D for --start-ms (default 300) before it
//                    serves, and writes D/<pid>.overlap: the most markers (its own included) it saw
// The SDK is imported dynamically so that --hang and --exit-early write to stderr at once.

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? true];
  }),
);

if (args.hang) {
  process.stderr.write('hang-server: loading a huge model, please wait...\n');
  setInterval(() => {}, 1000);
} else if (args['exit-early']) {
  process.stderr.write('exit-server: fatal: API_TOKEN is not set\n');
  process.exit(2);
} else {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const { CATALOG, schemaFor } = await import('./tool-catalog.mjs');
  const count = Number(args.tools ?? 3);
  const pageSize = args['page-size'] ? Number(args['page-size']) : undefined;
  const tools = CATALOG.slice(0, count).map(([name, description, params]) => ({
    name,
    description,
    inputSchema: schemaFor(params),
  }));
  if (args.special) {
    tools.push(
      { name: 'fail_tool', description: 'Always reports an error.', inputSchema: { type: 'object', properties: {} } },
      {
        name: 'crash_tool',
        description: 'Crashes the server in the middle of the call.',
        inputSchema: { type: 'object', properties: {} },
      },
      {
        name: 'slow_tool',
        description: 'Answers after a delay.',
        inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
      },
      {
        name: 'add_tool',
        description: 'Adds a tool named by `name` (and removes the tool named by `remove`) and announces the change.',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string' }, remove: { type: 'string' }, description: { type: 'string' } },
          required: ['name'],
        },
      },
    );
  }
  if (args.flood)
    tools.push(
      {
        name: 'flood',
        description: 'Sends many list_changed notifications at once.',
        inputSchema: { type: 'object', properties: { count: { type: 'number' } } },
      },
      { name: 'list_count', description: 'Counts tools/list requests.', inputSchema: { type: 'object', properties: {} } },
    );
  if (args.examples) {
    const complete = (query) => ({
      type: 'object',
      properties: { q: { type: 'string', description: 'Text to complete.', ...query } },
      required: ['q'],
    });
    tools.push(
      {
        name: 'recipe_auto_complete',
        description: 'Auto-complete suggestions for a partial query.',
        inputSchema: complete({ default: 'chicken soup' }),
      },
      {
        name: 'shop_auto_complete',
        description: 'Auto-complete suggestions for a partial query.',
        inputSchema: complete({ examples: ['velvet cushion', 'oak bookshelf'] }),
      },
    );
  }
  if (args.annotated) {
    const text = { type: 'object', properties: { id: { type: 'string' } } };
    tools.push(
      { name: 'read_notes', description: 'Reads notes.', inputSchema: text, annotations: { readOnlyHint: true } },
      {
        name: 'delete_note',
        description: 'Deletes a note for good.',
        inputSchema: text,
        annotations: { title: 'Delete a note', readOnlyHint: false, destructiveHint: true },
      },
      { name: 'add_note', description: 'Adds a note.', inputSchema: text, annotations: { destructiveHint: false } },
      {
        name: 'odd_hints',
        description: 'Odd hints.',
        inputSchema: text,
        annotations: { destructiveHint: 'yes', readOnlyHint: 1 },
      },
    );
  }
  if (args.structured)
    tools.push(
      {
        name: 'count_items',
        description: 'Counts the items of a list.',
        inputSchema: { type: 'object', properties: { mode: { type: 'string' } } },
        outputSchema: {
          type: 'object',
          properties: { count: { type: 'integer' }, list: { type: 'string' } },
          required: ['count'],
        },
      },
      {
        name: 'odd_output',
        description: 'Declares an output schema that is not an object.',
        inputSchema: { type: 'object', properties: {} },
        outputSchema: { type: 'string' },
      },
    );
  if (args['bad-schema'])
    tools.push({ name: 'odd_schema', description: 'Has a string input schema.', inputSchema: { type: 'string' } });

  const server = new Server(
    { name: 'test-server', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true } },
      ...(args.instructions ? { instructions: String(args.instructions) } : {}),
    },
  );
  let listed = 0;
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    listed++;
    if (!pageSize) return { tools };
    const start = Number(request.params?.cursor ?? 0);
    const next = start + pageSize;
    return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: input = {} } = request.params;
    switch (name) {
      case 'fail_tool':
        return { isError: true, content: [{ type: 'text', text: 'the upstream API said no' }] };
      case 'crash_tool':
        process.stderr.write('test-server: segfault in crash_tool\n');
        setTimeout(() => process.exit(13), 20);
        return new Promise(() => {});
      case 'flood':
        await Promise.all(Array.from({ length: Number(input.count ?? 100) }, () => server.sendToolListChanged()));
        return { content: [{ type: 'text', text: 'flooded' }] };
      case 'count_items': {
        if (args['calls-file']) (await import('node:fs')).appendFileSync(String(args['calls-file']), `${input.mode}\n`);
        const text = [{ type: 'text', text: 'the list has 3 items' }];
        if (input.mode === 'bad') return { content: text, structuredContent: { count: 'three', list: 7 } };
        if (input.mode === 'missing') return { content: text };
        if (input.mode === 'error') return { isError: true, content: [{ type: 'text', text: 'the list is gone' }] };
        return { content: text, structuredContent: { count: 3, list: 'groceries' } };
      }
      case 'odd_output':
        return { content: [{ type: 'text', text: 'odd' }], structuredContent: { anything: true } };
      case 'list_count':
        return { content: [{ type: 'text', text: String(listed) }] };
      case 'slow_tool':
        await new Promise((r) => setTimeout(r, Number(input.ms ?? 100)));
        return { content: [{ type: 'text', text: 'slow done' }] };
      case 'add_tool':
        if (input.remove !== undefined) {
          const at = tools.findIndex((t) => t.name === String(input.remove));
          if (at >= 0) tools.splice(at, 1);
        }
        tools.push({
          name: String(input.name),
          description: input.description ? String(input.description) : `Dynamically added tool ${input.name}.`,
          inputSchema: { type: 'object', properties: {} },
        });
        await server.sendToolListChanged();
        return { content: [{ type: 'text', text: `added ${input.name}` }] };
      default:
        if (!tools.some((t) => t.name === name)) throw new Error(`unknown tool ${name}`);
        return { content: [{ type: 'text', text: `${name} ok ${JSON.stringify(input)}` }] };
    }
  });
  if (args.stubborn) {
    process.on('SIGTERM', () => process.stderr.write('test-server: ignoring SIGTERM\n'));
    setInterval(() => {}, 1000);
  }
  if (args['start-dir']) await slowStart(String(args['start-dir']), Number(args['start-ms'] ?? 300));
  process.stderr.write('test-server: ready\n');
  await server.connect(new StdioServerTransport());
}

/** How many servers start at the same time, as this one sees it (markers of those not yet serving). */
async function slowStart(dir, ms) {
  const { readdirSync, rmSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const marker = join(dir, `${process.pid}.starting`);
  writeFileSync(marker, '');
  let most = 0;
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10)))
    most = Math.max(most, readdirSync(dir).filter((f) => f.endsWith('.starting')).length);
  writeFileSync(join(dir, `${process.pid}.overlap`), String(most));
  rmSync(marker);
}
