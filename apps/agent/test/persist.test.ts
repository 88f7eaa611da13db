import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_MCP_SERVER_PATH } from '../src/demo.js';
import { cleanEnv, readEvents, replay, runCli, tempDir, workspaceIn } from './helpers.js';

const env = (dir: string) => cleanEnv({ XDG_STATE_HOME: join(dir, 'xdg') });

describe('compact inputs through the CLI', { timeout: 120_000 }, () => {
  it('a write_file of 120,000 characters: later model requests hold < 10,000 of them; view-call --part input gives it back byte for byte', async () => {
    const dir = tempDir();
    const events = join(dir, 'events.jsonl');
    const data = join(dir, 'state');
    // 2,000 distinct lines of 60 characters: 120,000 characters.
    const lines = Array.from({ length: 2000 }, (_, i) =>
      `${String(i).padStart(6, '0')}:${(i * 7919).toString(36).padStart(8, 'q')}:${'abcdefghij'.repeat(4)}${'0123'}`.slice(0, 59),
    );
    const content = lines.join('\n') + '\n';
    expect(content.length).toBe(120_000);
    const model = replay(dir, [
      { toolCalls: [{ toolName: 'write_file', input: { path: 'big.txt', content }, id: 'write-big' }] },
      { toolCalls: [{ toolName: 'ls', input: { path: '.' }, id: 'look' }] },
      { text: 'written' },
    ]);
    const r = await runCli(
      [
        'run',
        'write it',
        '--model',
        model,
        '--workspace',
        workspaceIn(dir),
        '--data-dir',
        data,
        '--task-id',
        'big-write',
        '--events',
        events,
        '--yes',
      ],
      { env: env(dir) },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const log = readEvents(events);
    expect(log.find((e) => e.type === 'tool-result' && e.toolCallId === 'write-big')?.error).toBeUndefined();
    const later = log.filter((e) => e.type === 'model-request' && e.step > 0);
    expect(later).toHaveLength(2);
    for (const request of later) {
      const text = JSON.stringify(request.messages);
      const kept = lines.filter((line) => text.includes(line)).length * 60;
      expect(kept).toBeLessThan(10_000);
      // The note says how to get the input back.
      expect(text).toContain('view_tool_call');
      expect(text).toContain('write-big');
    }

    const view = await runCli(['view-call', 'write-big', '--task-id', 'big-write', '--data-dir', data, '--part', 'input'], {
      env: env(dir),
    });
    expect(view.stderr).toBe('');
    expect(view.code).toBe(0);
    expect(JSON.parse(view.stdout).content).toBe(content);
    // A call that was not compacted is saved too (raw), and view-call finds it without --task-id.
    const look = await runCli(['view-call', 'look', '--data-dir', data], { env: env(dir) });
    expect(look.code).toBe(0);
    expect(look.stdout).toContain('big.txt');
  });
});

describe('a persisted task resumes in a second process', { timeout: 120_000 }, () => {
  it('run 1 finds a deferred MCP tool with tool_search; run 2 --resume calls it at its first step without searching', async () => {
    const dir = tempDir();
    const data = join(dir, 'state');
    const mcp = join(dir, 'mcp.json');
    writeFileSync(mcp, JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [DEMO_MCP_SERVER_PATH] } } }));
    const common = ['--workspace', workspaceIn(dir), '--data-dir', data, '--mcp-config', mcp, '--task-id', 'money'];

    const events1 = join(dir, 'run1.jsonl');
    const model1 = replay(join(dir), [
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'convert money between currencies' }, id: 'search' }] },
      { text: 'found the converter' },
    ]);
    const r1 = await runCli(['run', 'find a currency converter', '--model', model1, ...common, '--events', events1], {
      env: env(dir),
    });
    expect(r1.stderr).toBe('');
    expect(r1.code).toBe(0);
    const log1 = readEvents(events1);
    expect(log1.find((e) => e.type === 'tool-result' && e.toolCallId === 'search')!.client.tools[0].name).toBe(
      'big__convert_currency',
    );
    expect(log1.find((e) => e.type === 'model-request')!.tools).not.toContain('big__convert_currency');

    const dir2 = join(dir, 'second');
    mkdirSync(dir2);
    const events2 = join(dir, 'run2.jsonl');
    const model2 = replay(dir2, [
      { toolCalls: [{ toolName: 'big__convert_currency', input: { amount: 10, from: 'EUR', to: 'USD' }, id: 'convert' }] },
      { text: 'converted' },
    ]);
    const r2 = await runCli(['run', 'now convert 10 EUR', '--model', model2, ...common, '--resume', '--events', events2], {
      env: env(dir),
    });
    expect(r2.stderr).toBe('');
    expect(r2.code).toBe(0);
    const log2 = readEvents(events2);
    const first = log2.find((e) => e.type === 'model-request' && e.step === 0)!;
    expect(first.tools).toContain('big__convert_currency');
    const sent = JSON.stringify(first.messages);
    expect(sent).toContain('find a currency converter');
    expect(sent).toContain('"toolCallId":"search"');
    expect(sent).toContain('now convert 10 EUR');
    expect(log2.some((e) => e.type === 'tool-call' && e.toolName === 'tool_search')).toBe(false);
    const convert = log2.find((e) => e.type === 'tool-result' && e.toolCallId === 'convert')!;
    expect(convert.error).toBeUndefined();
    expect(JSON.stringify(convert.model)).toContain('10 EUR = 11.00 USD');

    const tasks = await runCli(['tasks', '--data-dir', data, '--json'], { env: env(dir) });
    expect(tasks.code).toBe(0);
    expect(JSON.parse(tasks.stdout)).toEqual([
      expect.objectContaining({ taskId: 'money', runs: 2, steps: 4, status: 'completed', task: 'find a currency converter' }),
    ]);
    const text = await runCli(['tasks', '--data-dir', data], { env: env(dir) });
    expect(text.stdout).toMatch(/^id\s+started\s+steps\s+status\nmoney\s+\S+\s+4\s+completed\n$/);
  });

  it('--resume of a task that does not exist is refused with the fix', async () => {
    const dir = tempDir();
    const r = await runCli(
      [
        'run',
        'go on',
        '--model',
        replay(dir, [{ text: 'x' }]),
        '--workspace',
        workspaceIn(dir),
        '--data-dir',
        join(dir, 'state'),
        '--task-id',
        'ghost',
        '--resume',
      ],
      { env: env(dir) },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[discovery\] --resume: there is no persisted task "ghost".*aibuddy tasks/s);
  });
});

describe("host state outside the model's reach", { timeout: 120_000 }, () => {
  it('defaults to $XDG_STATE_HOME/aibuddy/<workspace id> and refuses a --data-dir inside the workspace (exit 2)', async () => {
    const dir = tempDir();
    const ws = workspaceIn(dir);
    const r = await runCli(['run', 'hi', '--model', replay(dir, [{ text: 'hello' }]), '--workspace', ws, '--task-id', 't1'], {
      env: env(dir),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`data dir:\\s+${join(dir, 'xdg', 'aibuddy')}/ws-[0-9a-f]{12}\\n`));
    expect(existsSync(join(ws, '.aibuddy'))).toBe(false);
    const inside = await runCli(
      ['run', 'hi', '--model', replay(dir, [{ text: 'hello' }]), '--workspace', ws, '--data-dir', join(ws, '.state')],
      { env: env(dir) },
    );
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/--data-dir .* is inside the workspace .*outside the workspace/);
  });

  it('a data folder replaced by a symlink to an outside folder: nothing is written outside', async () => {
    const dir = tempDir();
    const data = join(dir, 'state');
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'settings.json'), '{}');
    const command = `node -e "for (let i = 1; i <= 2000; i++) console.log('row ' + i + ' ' + 'x'.repeat(40))"`;
    const script = (id: string) =>
      replay(dir, [{ toolCalls: [{ toolName: 'execute', input: { command }, id }] }, { text: 'done' }]);
    const args = (id: string) => [
      'run',
      'print',
      '--model',
      script(id),
      '--workspace',
      workspaceIn(dir),
      '--data-dir',
      data,
      '--task-id',
      id,
      '--yes',
    ];
    const r1 = await runCli(args('first'), { env: env(dir) });
    expect(r1.code).toBe(0);
    expect(existsSync(join(data, 'compacted_outputs', 'first', 'first.json'))).toBe(true);

    // What a command with access to the folder could do: swap the store's folder for a link.
    rmSync(join(data, 'compacted_outputs'), { recursive: true });
    symlinkSync(outside, join(data, 'compacted_outputs'));
    const r2 = await runCli(args('second'), { env: env(dir) });
    expect(r2.stderr).toMatch(/\[projection\] compaction: .*refusing to follow the symlink/);
    expect(readdirSync(outside)).toEqual(['settings.json']);

    // And the data folder itself.
    rmSync(join(data, 'compacted_outputs'));
    rmSync(data, { recursive: true });
    symlinkSync(outside, data);
    const r3 = await runCli(args('third'), { env: env(dir) });
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(/refusing to follow the symlink/);
    expect(readdirSync(outside)).toEqual(['settings.json']);
  });
});
