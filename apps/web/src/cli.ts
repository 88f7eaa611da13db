#!/usr/bin/env node
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startWebServer } from './web-server.js';

const USAGE = `usage: pnpm web [-- --port N] [--workspace DIR] [--model SPEC] [--base-url URL] [--mcp-config FILE] [--data-dir DIR] [--allow PREFIX]... [--host ADDR]
  Starts the aibuddy web client. Without --model and without a key: the scripted demo model in a fresh temporary workspace.
  --host: the interface to listen on (default 127.0.0.1; anything else exposes the agent to your network).\n`;

async function main(argv: string[]): Promise<number> {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        workspace: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        'mcp-config': { type: 'string' },
        'data-dir': { type: 'string' },
        allow: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`aibuddy web: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`aibuddy web: --port must be a whole number from 0 to 65535 (got "${values.port}").\n`);
    return 2;
  }
  const { defaultModelSpec } = await import('@aibuddy/agent');
  const modelSpec = values.model ?? defaultModelSpec(process.env, true);
  const workspace = values.workspace
    ? resolve(values.workspace)
    : modelSpec === 'demo'
      ? mkdtempSync(join(tmpdir(), 'aibuddy-web-'))
      : process.cwd();
  const heartbeat = process.env.AIBUDDY_HEARTBEAT_MS;
  const server = await startWebServer({
    workspace,
    modelSpec,
    port,
    ...(values.host ? { hostname: values.host } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values['mcp-config'] ? { mcpConfig: resolve(values['mcp-config']) } : {}),
    ...(values['data-dir'] ? { dataDir: resolve(values['data-dir']) } : {}),
    ...(values.allow ? { allow: values.allow } : {}),
    ...(heartbeat ? { heartbeatIntervalMs: Number(heartbeat) } : {}),
    onWarning: (message) => process.stderr.write(`aibuddy web: ${message}\n`),
  });
  process.stderr.write(`workspace: ${workspace}\nmodel:     ${modelSpec}\n`);
  process.stdout.write(`aibuddy web: ${server.url}\n`);
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`aibuddy web: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
