// Shared by the MCP integration tests (not exported from the package).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseMcpConfig } from '../mcp/config.js';
import { connectMcpServers } from '../mcp/mcp-manager.js';
import type { ConnectMcpServersOptions, McpManager } from '../mcp/mcp-manager.js';
import type { McpServerEvent } from '../mcp/mcp-connection-types.js';

export const TEST_SERVER = fileURLToPath(new URL('./test-server.mjs', import.meta.url));
export const HTTP_SERVER_MODULE = new URL('./http-server.mjs', import.meta.url).href;

/** A stdio server entry running the fixture with these flags. */
export function fixture(...flags: string[]): Record<string, unknown> {
  return { command: process.execPath, args: [TEST_SERVER, ...flags] };
}

/**
 * Fast timing for tests. Start-up and call timeouts stay generous: the machine may be loaded, and
 * the tests that are about timeouts set their own.
 */
export const FAST: ConnectMcpServersOptions = {
  startupTimeoutMs: 30_000,
  callTimeoutMs: 30_000,
  shutdownGraceMs: 200,
  reconnect: { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 6 },
};

const open = new Set<McpManager>();

/** Connects servers from a raw `mcpServers` object; remembered for `closeAll`. */
export async function connect(
  servers: Record<string, unknown>,
  options: ConnectMcpServersOptions = {},
): Promise<McpManager & { events: McpServerEvent[] }> {
  const events: McpServerEvent[] = [];
  const manager = await connectMcpServers(parseMcpConfig({ mcpServers: servers }), {
    ...FAST,
    ...options,
    onEvent: (e) => {
      events.push(e);
      options.onEvent?.(e);
    },
  });
  open.add(manager);
  return Object.assign(manager, { events });
}

/** Closes every manager the tests opened. */
export async function closeAll(): Promise<void> {
  await Promise.all([...open].map((m) => m.close()));
  open.clear();
}

/** Resolves when `predicate` holds (polled), or rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** State, process group and session of a process from /proc/<pid>/stat (Linux), or undefined once it is gone. */
export function procStat(pid: number): { state: string; pgrp: number; session: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after its last ")" do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] as string, pgrp: Number(fields[2]), session: Number(fields[3]) };
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie (a container's init may reap killed orphans late). */
export function alive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}
