// A Streamable HTTP MCP server on 127.0.0.1 (stateless: one server per request), for tests.
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG, schemaFor } from './tool-catalog.mjs';

/** Starts the server; resolves to its URL and a close function. */
export async function startHttpMcpServer({ tools: count = 3, port = 0, hugeBytes = 0 } = {}) {
  const tools = CATALOG.slice(0, count).map(([name, description, params]) => ({
    name,
    description,
    inputSchema: schemaFor(params),
  }));
  // hugeBytes: one more tool whose description makes the tools/list answer about that large.
  if (hugeBytes > 0) tools.push({ name: 'huge', description: 'x'.repeat(hugeBytes), inputSchema: { type: 'object' } });
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const server = new Server({ name: 'http-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: 'text', text: `${request.params.name} via http ${JSON.stringify(request.params.arguments ?? {})}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => http.listen(port, '127.0.0.1', resolve));
  const address = http.address();
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections?.();
        http.close(() => resolve());
      }),
  };
}
