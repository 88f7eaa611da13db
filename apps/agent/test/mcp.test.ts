import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_MCP_SERVER_PATH } from '../src/demo.js';
import { fixtures, readEvents, repoRoot, replay, runCli, tempDir, workspaceIn } from './helpers.js';

function mcpConfig(dir: string, servers: Record<string, unknown>): string {
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

/** `aibuddy run PROMPT` with a replay model taking `steps`, these MCP servers and an events file; the run and its events. */
async function scriptedRun(dir: string, prompt: string, steps: unknown[], servers: Record<string, unknown>, ...extra: string[]) {
  const events = join(dir, 'events.jsonl');
  const model = replay(dir, steps);
  const args = ['--model', model, '--workspace', workspaceIn(dir), '--mcp-config', mcpConfig(dir, servers)];
  const r = await runCli(['run', prompt, ...args, '--events', events, ...extra]);
  return { r, log: readEvents(events) };
}

const big = { command: process.execPath, args: [DEMO_MCP_SERVER_PATH] };
const small = { command: process.execPath, args: [join(fixtures, 'small-mcp-server.mjs')] };

const SLOW_SERVER = join(repoRoot, 'packages/discovery/src/__fixtures__/test-server.mjs');

describe('MCP servers from a config file', { timeout: 120_000 }, () => {
  it('run --mcp-wait 0 starts at once, says which server is still starting, and exits cleanly', async () => {
    const dir = tempDir();
    const slow = {
      command: process.execPath,
      // 15 tools (deferred), 6 s to come up: longer than this run lasts.
      args: [SLOW_SERVER, '--tools=15', `--start-dir=${tempDir('aibuddy-slow-')}`, '--start-ms=6000'],
    };
    const events = join(dir, 'events.jsonl');
    const started = Date.now();
    const r = await runCli([
      'run',
      'find a forecast tool',
      '--mcp-config',
      mcpConfig(dir, { slow }),
      '--mcp-wait',
      '0',
      '--workspace',
      workspaceIn(dir),
      '--events',
      events,
      '--model',
      replay(dir, [{ toolCalls: [{ toolName: 'tool_search', input: { query: 'weather forecast' } }] }, { text: 'later' }]),
    ]);
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_500);
    expect(r.stdout).toContain('starting:  1 MCP server (slow): their tools join when they are up');
    const search = readEvents(events).find((e) => e.type === 'tool-result' && e.toolName === 'tool_search');
    expect(JSON.stringify(search?.model)).toMatch(/still starting: slow/);
  });

  it('aibuddy tools --json: the 12-tool server is deferred with the reason, the 3-tool server is direct', async () => {
    const dir = tempDir();
    const r = await runCli([
      'tools',
      '--json',
      '--mcp-config',
      mcpConfig(dir, { big, small }),
      '--workspace',
      dir,
      '--model',
      replay(dir, [{ text: 'x' }]),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['deferPath', 'direct', 'deferred', 'excluded']));
    expect(report.deferPath).toBe('active-tools');
    expect(report.deferred).toHaveLength(12);
    for (const d of report.deferred) {
      expect(d.server).toBe('big');
      expect(d.name).toMatch(/^big__/);
      expect(d.reason).toMatch(/12 tools, more than 10/);
    }
    const direct = report.direct.map((t: { name: string }) => t.name);
    expect(direct).toEqual(
      expect.arrayContaining([
        'read_file',
        'write_file',
        'edit_file',
        'execute',
        'tool_search',
        'small__echo',
        'small__add',
        'small__now',
      ]),
    );
    expect(report.direct.find((t: { name: string }) => t.name === 'small__echo').server).toBe('small');
    expect(direct.some((n: string) => n.startsWith('big__'))).toBe(false);
    expect(report.excluded).toEqual(expect.arrayContaining([{ key: 'skills', reason: expect.stringMatching(/--skills/) }]));
  });

  it('a deferred tool is found with tool_search, joins at the next step, and is called', async () => {
    const { r, log } = await scriptedRun(
      tempDir(),
      'convert 10 EUR',
      [
        { toolCalls: [{ toolName: 'big__convert_currency', input: { amount: 10, from: 'EUR', to: 'USD' }, id: 'too-early' }] },
        { toolCalls: [{ toolName: 'tool_search', input: { query: 'convert money between currencies' }, id: 'search' }] },
        {
          toolCalls: [
            { toolName: 'big__convert_currency', input: { amount: 10, from: 'EUR', to: 'USD' }, id: 'convert' },
            { toolName: 'small__add', input: { a: 2, b: 3 }, id: 'add' },
          ],
        },
        { text: 'converted' },
      ],
      { big, small },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const result = (id: string) => log.find((e) => e.type === 'tool-result' && e.toolCallId === id);
    // Before the search, the deferred tool is known but not loaded: a discovery error that says to search.
    expect(result('too-early')?.error).toMatchObject({ stage: 'discovery' });
    expect(result('too-early')?.error.message).toMatch(/tool_search/);
    const found = result('search')!.client.tools.map((t: { name: string }) => t.name);
    expect(found[0]).toBe('big__convert_currency');
    expect(result('convert')?.error).toBeUndefined();
    expect(JSON.stringify(result('convert')?.model)).toContain('10 EUR = 11.00 USD');
    expect(JSON.stringify(result('add')?.model)).toContain('5');
    const requests = log.filter((e) => e.type === 'model-request');
    expect(requests[0]!.tools).not.toContain('big__convert_currency');
    expect(requests[2]!.tools).toContain('big__convert_currency');
  });

  it('a tool its server marks destructive waits for a confirmation: --no leaves it unrun, --yes runs it', async () => {
    for (const answer of ['--no', '--yes'] as const) {
      const dir = tempDir();
      const marker = join(dir, 'forgotten');
      const destructive = { ...small, args: [...small.args, `--destructive=${marker}`] };
      const { r, log } = await scriptedRun(
        dir,
        'forget k1',
        [
          {
            toolCalls: [
              { toolName: 'small__forget', input: { key: 'k1' }, id: 'forget' },
              { toolName: 'small__echo', input: { text: 'hi' }, id: 'echo' },
            ],
          },
          { text: 'done' },
        ],
        { small: destructive },
        answer,
      );
      expect(r.code).toBe(0);
      // Only the destructive tool asks, and the person sees the call with its input.
      expect(log.filter((e) => e.type === 'confirm-request')).toEqual([
        expect.objectContaining({ toolCallId: 'forget', target: 'forget {"key":"k1"}', scope: 'MCP server "small"' }),
      ]);
      expect(log.find((e) => e.type === 'confirm-decision')).toMatchObject({
        toolCallId: 'forget',
        approved: answer === '--yes',
      });
      expect(existsSync(marker)).toBe(answer === '--yes');
      const echo = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'echo');
      expect(JSON.stringify(echo?.model)).toContain('echo: hi');
    }
  });

  it("a result that breaks its tool's output schema fails at verification; the run goes on and the CLI exits 0", async () => {
    const structured = { ...small, args: [...small.args, '--structured'] };
    const { r, log } = await scriptedRun(
      tempDir(),
      'count',
      [
        {
          toolCalls: [
            { toolName: 'small__count', input: { mode: 'bad' }, id: 'bad' },
            { toolName: 'small__count', input: { mode: 'good' }, id: 'good' },
          ],
        },
        { text: 'done' },
      ],
      { small: structured },
    );
    expect(r.code).toBe(0);
    const result = (id: string) => log.find((e) => e.type === 'tool-result' && e.toolCallId === id);
    expect(result('bad')?.error).toMatchObject({ stage: 'verification' });
    expect(result('bad')?.error.message).toMatch(/structuredContent\.count/);
    expect(result('good')?.error).toBeUndefined();
    expect(JSON.stringify(result('good')?.model)).toContain('the list has 3 items');
  });

  it('a deferred destructive tool asks too, once tool_search has loaded it', async () => {
    const notes = { command: process.execPath, args: [SLOW_SERVER, '--tools=12', '--annotated'] };
    const steps = [
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'delete a note for good' }, id: 'search' }] },
      { toolCalls: [{ toolName: 'notes__delete_note', input: { id: 'n7' }, id: 'delete' }] },
      { text: 'done' },
    ];
    const { r, log } = await scriptedRun(tempDir(), 'delete note n7', steps, { notes }, '--no');
    expect(r.code).toBe(0);
    const found = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'search')!.client.tools;
    expect(found.map((t: { name: string }) => t.name)).toContain('notes__delete_note');
    expect(log.filter((e) => e.type === 'confirm-request')).toEqual([
      expect.objectContaining({ toolCallId: 'delete', target: 'delete_note {"id":"n7"}', scope: 'MCP server "notes"' }),
    ]);
    expect(log.find((e) => e.type === 'confirm-decision')).toMatchObject({ toolCallId: 'delete', approved: false });
  });

  it('a broken MCP server is reported with the stage, its stderr and the fix; the run goes on', async () => {
    const dir = tempDir();
    const broken = {
      command: process.execPath,
      args: ['-e', 'console.error("fatal: TOOLBOX_TOKEN is not set"); process.exit(3)'],
    };
    const model = replay(dir, [{ toolCalls: [{ toolName: 'small__echo', input: { text: 'still here' } }] }, { text: 'ok' }]);
    const r = await runCli([
      'run',
      'echo',
      '--model',
      model,
      '--workspace',
      workspaceIn(dir),
      '--mcp-config',
      mcpConfig(dir, { broken, small }),
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\[discovery\].*MCP server "broken" failed to start/);
    expect(r.stderr).toContain('TOOLBOX_TOKEN is not set');
    expect(r.stderr).toMatch(/Fix: .*"broken" entry of the MCP config/);
    expect(r.stdout).toContain('echo: still here');
  });

  it('an invalid MCP config refuses to start, naming the stage, the problem and the fix', async () => {
    const dir = tempDir();
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { nocommand: { args: ['x'] } } }));
    const r = await runCli(['tools', '--mcp-config', file, '--workspace', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[discovery\]/);
    expect(r.stderr).toContain('nocommand');
    expect(r.stderr).toMatch(/command/);

    writeFileSync(file, '{ "mcpServers": { ,, }');
    const bad = await runCli(['run', 'x', '--mcp-config', file, '--workspace', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/\[discovery\][\s\S]*not valid JSON/);

    const missing = await runCli(['tools', '--mcp-config', join(dir, 'nope.json'), '--workspace', dir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/\[discovery\][\s\S]*does not exist; check the --mcp-config path/);
  });
});
