import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { McpConfigError } from '../errors.js';
import { MCP_CONFIRM_MODES } from './mcp-confirmation.js';
import type { McpConfirmMode } from './mcp-confirmation.js';

/** Largest MCP config file read (a config is a few KB; this only stops a runaway file). */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** Default start-up timeout of one MCP server (handshake plus the first `tools/list`). */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/** Options every server entry may carry besides its transport. */
export interface McpServerOptions {
  /** Never defer this server's tools, whatever the gate counts. */
  alwaysLoad?: boolean;
  /** Only these tools (original MCP names) are offered; all when omitted. */
  allowTools?: string[];
  /** These tools (original MCP names) are never offered. Applied after `allowTools`. */
  denyTools?: string[];
  /** How long the server may take to start and list its tools (ms). */
  startupTimeoutMs?: number;
  /** Skip this server entirely (kept in the file, not started). */
  disabled?: boolean;
  /**
   * Which calls of this server's tools wait for a person's confirmation: `destructive` (default,
   * the tools the server marks destructive), `always` or `never`. See {@link McpConfirmMode}.
   */
  confirm?: McpConfirmMode;
}

/** A server started as a child process speaking MCP over stdio. */
export interface McpStdioServerConfig extends McpServerOptions {
  /** Transport kind. */
  type: 'stdio';
  /** The executable. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Extra environment variables (added to a minimal safe environment: PATH, HOME, ...). */
  env: Record<string, string>;
  /** Working directory of the process. */
  cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerOptions {
  /** Transport kind. */
  type: 'http';
  /** The MCP endpoint, for example `http://127.0.0.1:3000/mcp`. */
  url: string;
  /** Extra request headers (for example `Authorization`). */
  headers: Record<string, string>;
}

/** One validated server entry. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A validated `mcpServers` config. */
export interface McpConfig {
  /** Servers by name, in file order (disabled ones included, flagged). */
  servers: Record<string, McpServerConfig>;
  /** Things that are tolerated but probably mistakes (unknown keys). */
  warnings: string[];
}

const COMMON_KEYS = new Set(['type', 'alwaysLoad', 'allowTools', 'denyTools', 'startupTimeoutMs', 'disabled', 'confirm']);
const STDIO_KEYS = new Set([...COMMON_KEYS, 'command', 'args', 'env', 'cwd']);
const HTTP_KEYS = new Set([...COMMON_KEYS, 'url', 'headers']);
const SERVER_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Each field carries the sentence a person needs (what is wrong and the fix); zod collects them all.
const stringList = (message: string) => z.array(z.string({ error: message }), { error: message });
const stringMap = (message: string) => z.record(z.string(), z.string({ error: message }), { error: message });
const OptionsSchema = z.object({
  alwaysLoad: z.boolean({ error: '"alwaysLoad" must be true or false.' }).optional(),
  disabled: z.boolean({ error: '"disabled" must be true or false.' }).optional(),
  allowTools: stringList('"allowTools" must be an array of tool names (as the server names them).').optional(),
  denyTools: stringList('"denyTools" must be an array of tool names (as the server names them).').optional(),
  startupTimeoutMs: z
    .number({ error: '"startupTimeoutMs" must be a positive number of milliseconds (for example 30000).' })
    .positive({ error: '"startupTimeoutMs" must be a positive number of milliseconds (for example 30000).' })
    .finite({ error: '"startupTimeoutMs" must be a positive number of milliseconds (for example 30000).' })
    .optional(),
  confirm: z
    .enum(MCP_CONFIRM_MODES, {
      error:
        '"confirm" must be "destructive" (the default: calls of the tools the server marks destructive wait for a person), "always" or "never".',
    })
    .optional(),
});
const StdioEntrySchema = OptionsSchema.extend({
  command: z
    .string({ error: '"command" must be a non-empty string (the executable, for example "node" or "npx").' })
    .trim()
    .min(1, { error: '"command" must be a non-empty string (the executable, for example "node" or "npx").' }),
  args: stringList('"args" must be an array of strings.').optional(),
  env: stringMap('"env" must be an object of string values (quote numbers: "PORT": "3000").').optional(),
  cwd: z.string({ error: '"cwd" must be a string path.' }).optional(),
});
const HttpEntrySchema = OptionsSchema.extend({
  url: z.string({ error: '"url" must be a string such as "http://127.0.0.1:3000/mcp".' }),
  headers: stringMap('"headers" must be an object of string values.').optional(),
});

/** Every distinct message of a failed parse, in order. */
function messagesOf(error: z.ZodError): string[] {
  return [...new Set(error.issues.map((issue) => issue.message))];
}

/** Options every entry may carry, without keys it does not set. */
function optionsOf(entry: z.infer<typeof OptionsSchema>): McpServerOptions {
  const options: McpServerOptions = {};
  if (entry.alwaysLoad !== undefined) options.alwaysLoad = entry.alwaysLoad;
  if (entry.disabled !== undefined) options.disabled = entry.disabled;
  if (entry.allowTools !== undefined) options.allowTools = [...entry.allowTools];
  if (entry.denyTools !== undefined) options.denyTools = [...entry.denyTools];
  if (entry.startupTimeoutMs !== undefined) options.startupTimeoutMs = entry.startupTimeoutMs;
  if (entry.confirm !== undefined) options.confirm = entry.confirm;
  return options;
}

/**
 * Validates a parsed `mcpServers` config (the format Claude Desktop, Cursor and others use) and
 * returns it normalized. Collects every problem and throws one `McpConfigError` (stage
 * `discovery`) naming each and its fix. Unknown keys are tolerated and reported as warnings, so
 * files written for other clients keep working.
 */
export function parseMcpConfig(value: unknown, source = 'inline config'): McpConfig {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (!isRecord(value)) {
    throw new McpConfigError(source, [
      `the top level must be a JSON object with an "mcpServers" key, got ${Array.isArray(value) ? 'an array' : typeof value}.`,
    ]);
  }
  const raw = value.mcpServers;
  if (raw === undefined) {
    throw new McpConfigError(source, ['there is no "mcpServers" key; put the servers under {"mcpServers": {...}}.']);
  }
  if (!isRecord(raw)) {
    throw new McpConfigError(source, ['"mcpServers" must be an object mapping server names to server entries.']);
  }
  for (const key of Object.keys(value)) {
    if (key !== 'mcpServers') warnings.push(`top-level key "${key}" is ignored.`);
  }
  // No prototype: a server may be called "__proto__" or "constructor" like any other name.
  const servers = Object.create(null) as Record<string, McpServerConfig>;
  for (const [name, entry] of Object.entries(raw)) {
    const at = `server "${name}"`;
    if (!SERVER_NAME.test(name)) {
      problems.push(`${at}: the name must be 1-64 letters, digits, "_", "-" or "."; rename it.`);
    }
    if (!isRecord(entry)) {
      problems.push(`${at}: the entry must be an object with "command" (stdio) or "url" (Streamable HTTP).`);
      continue;
    }
    const before = problems.length;
    const type = entry.type;
    if (type === 'sse') {
      problems.push(
        `${at}: the legacy SSE transport is not supported; use the server's Streamable HTTP endpoint with "url" (and "type": "http" or no type).`,
      );
      continue;
    }
    const hasCommand = entry.command !== undefined;
    const hasUrl = entry.url !== undefined;
    if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'streamable-http' && type !== 'streamableHttp') {
      problems.push(`${at}: unknown "type" ${JSON.stringify(type)}; use "stdio" (with "command") or "http" (with "url").`);
      continue;
    }
    if (hasCommand && hasUrl) {
      problems.push(
        `${at}: has both "command" and "url"; keep "command" for a local process or "url" for a remote server, not both.`,
      );
      continue;
    }
    if (!hasCommand && !hasUrl) {
      problems.push(`${at}: needs "command" (a program to start over stdio) or "url" (a Streamable HTTP endpoint).`);
      continue;
    }
    if (hasCommand) {
      if (type !== undefined && type !== 'stdio')
        problems.push(
          `${at}: "type" is ${JSON.stringify(type)} but the entry has "command"; use "type": "stdio" or drop "type".`,
        );
      const parsed = StdioEntrySchema.safeParse(entry);
      if (!parsed.success) for (const m of messagesOf(parsed.error)) problems.push(`${at}: ${m}`);
      for (const key of Object.keys(entry)) if (!STDIO_KEYS.has(key)) warnings.push(`${at}: key "${key}" is ignored.`);
      if (problems.length === before && parsed.success) {
        const e = parsed.data;
        servers[name] = {
          type: 'stdio',
          command: e.command,
          args: [...(e.args ?? [])],
          env: { ...(e.env ?? {}) },
          ...(e.cwd === undefined ? {} : { cwd: e.cwd }),
          ...optionsOf(e),
        };
      }
    } else {
      if (type === 'stdio') problems.push(`${at}: "type" is "stdio" but the entry has "url" and no "command".`);
      const parsed = HttpEntrySchema.safeParse(entry);
      if (!parsed.success) for (const m of messagesOf(parsed.error)) problems.push(`${at}: ${m}`);
      let url: URL | undefined;
      if (typeof entry.url === 'string') {
        try {
          url = new URL(entry.url);
          if (url.protocol !== 'http:' && url.protocol !== 'https:') {
            problems.push(`${at}: "url" must use http or https, got "${url.protocol}".`);
          }
        } catch {
          problems.push(
            `${at}: "url" ${JSON.stringify(entry.url)} is not a valid URL; write it in full, e.g. "https://example.com/mcp".`,
          );
        }
      }
      for (const key of Object.keys(entry)) if (!HTTP_KEYS.has(key)) warnings.push(`${at}: key "${key}" is ignored.`);
      if (problems.length === before && parsed.success && url) {
        servers[name] = {
          type: 'http',
          url: url.toString(),
          headers: { ...(parsed.data.headers ?? {}) },
          ...optionsOf(parsed.data),
        };
      }
    }
  }
  if (problems.length > 0) throw new McpConfigError(source, problems);
  return { servers, warnings };
}

/**
 * Reads and validates an `mcpServers` config file. Throws `McpConfigError` (stage `discovery`)
 * when the file is missing, is not JSON, or is not a valid config, naming the problem and its fix.
 */
export async function loadMcpConfig(path: string): Promise<McpConfig> {
  let text: string;
  try {
    // Opened without blocking and checked before reading: a FIFO, a folder or a device would hang the
    // read or never end; only a regular file is a config.
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        const kind = info.isDirectory()
          ? 'a folder'
          : info.isFIFO()
            ? 'a named pipe (FIFO)'
            : info.isSocket()
              ? 'a socket'
              : 'a device or other special file';
        throw new McpConfigError(path, [`the path is ${kind}, not a regular file; pass --mcp-config a JSON file.`]);
      }
      if (info.size > MAX_CONFIG_BYTES) {
        throw new McpConfigError(path, [
          `the file is ${info.size} bytes, more than ${MAX_CONFIG_BYTES}; an MCP config is a small JSON file.`,
        ]);
      }
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (McpConfigError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new McpConfigError(
      path,
      [
        code === 'ENOENT'
          ? 'the file does not exist; check the --mcp-config path.'
          : code === 'EISDIR'
            ? 'the path is a folder, not a regular file; pass --mcp-config a JSON file.'
            : `the file cannot be read (${(error as Error).message}).`,
      ],
      error,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(
      path,
      [`the file is not valid JSON (${(error as Error).message}); fix the syntax (no comments or trailing commas).`],
      error,
    );
  }
  return parseMcpConfig(parsed, path);
}
