import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpConfigError } from '../errors.js';
import { loadMcpConfig, parseMcpConfig } from './config.js';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(McpConfigError.isInstance(error)).toBe(true);
    expect((error as McpConfigError).stage).toBe('discovery');
    return [...(error as McpConfigError).problems];
  }
  throw new Error('expected an McpConfigError');
}

describe('parseMcpConfig', () => {
  it('reads stdio and http entries with their options', () => {
    const config = parseMcpConfig({
      mcpServers: {
        files: {
          command: 'npx',
          args: ['-y', 'server-files'],
          env: { ROOT: '/tmp' },
          alwaysLoad: true,
          denyTools: ['rm'],
          startupTimeoutMs: 5000,
        },
        remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' }, allowTools: ['a'] },
        off: { command: 'x', disabled: true },
      },
    });
    expect(config.servers.files).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'server-files'],
      env: { ROOT: '/tmp' },
      alwaysLoad: true,
      denyTools: ['rm'],
      startupTimeoutMs: 5000,
    });
    expect(config.servers.remote).toMatchObject({
      type: 'http',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer x' },
      allowTools: ['a'],
    });
    expect(config.servers.off).toMatchObject({ disabled: true });
    expect(config.warnings).toEqual([]);
  });

  it('tolerates keys of other clients as warnings', () => {
    const config = parseMcpConfig({ mcpServers: { a: { command: 'x', autoApprove: [] } }, globalShortcut: 'x' });
    expect(config.warnings).toEqual(['top-level key "globalShortcut" is ignored.', 'server "a": key "autoApprove" is ignored.']);
  });

  it('lists every problem with its fix', () => {
    const problems = problemsOf(() =>
      parseMcpConfig({
        mcpServers: {
          empty: {},
          both: { command: 'x', url: 'http://a' },
          badArgs: { command: 'x', args: 'not-an-array', env: { PORT: 3000 } },
          sse: { type: 'sse', url: 'http://a/sse' },
          badUrl: { url: 'not a url' },
          'bad name!': { command: 'x' },
          timeout: { command: 'x', startupTimeoutMs: -1 },
        },
      }),
    );
    expect(problems).toHaveLength(8);
    expect(problems.join('\n')).toMatch(/server "empty": needs "command".*or "url"/);
    expect(problems.join('\n')).toMatch(/server "both": has both "command" and "url"/);
    expect(problems.join('\n')).toMatch(/"args" must be an array of strings/);
    expect(problems.join('\n')).toMatch(/quote numbers/);
    expect(problems.join('\n')).toMatch(/SSE transport is not supported/);
    expect(problems.join('\n')).toMatch(/"not a url" is not a valid URL/);
    expect(problems.join('\n')).toMatch(/server "bad name!": the name must be/);
    expect(problems.join('\n')).toMatch(/startupTimeoutMs" must be a positive number/);
  });

  it('rejects a file without mcpServers', () => {
    expect(problemsOf(() => parseMcpConfig({ servers: {} }))[0]).toMatch(/no "mcpServers" key/);
    expect(problemsOf(() => parseMcpConfig([]))[0]).toMatch(/got an array/);
  });
});

describe('loadMcpConfig', () => {
  it('names the file and the fix for a missing file and for bad JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-config-'));
    const missing = await loadMcpConfig(join(dir, 'nope.json')).catch((e: unknown) => e);
    expect(McpConfigError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toContain('nope.json');
    expect((missing as Error).message).toMatch(/does not exist/);
    await writeFile(join(dir, 'bad.json'), '{"mcpServers": {,}}');
    const bad = await loadMcpConfig(join(dir, 'bad.json')).catch((e: unknown) => e);
    expect((bad as McpConfigError).message).toMatch(/\[discovery\] invalid MCP config .*bad\.json.*not valid JSON/s);
    await writeFile(join(dir, 'good.json'), JSON.stringify({ mcpServers: { a: { command: 'node' } } }));
    expect((await loadMcpConfig(join(dir, 'good.json'))).servers.a).toMatchObject({ type: 'stdio', command: 'node', args: [] });
  });
});
