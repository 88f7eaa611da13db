import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceId } from '@aibuddy/compactor';
import { cleanEnv, readEvents, replayExecute, rowsCommand, runCli, tempDir, workspaceIn } from './helpers.js';

function toolResultsInPrompt(messages: any[]): any[] {
  return messages.filter((m) => m.role === 'tool').flatMap((m) => m.content.filter((p: any) => p.type === 'tool-result'));
}

describe('execute output longer than 30,000 characters', { timeout: 120_000 }, () => {
  it('reaches the model as head and tail, the client in full, and is recoverable with view-call', async () => {
    const dir = tempDir();
    const workspace = workspaceIn(dir);
    const events = join(dir, 'events.jsonl');
    // 2,000 numbered lines of 40 characters: 80,000 characters.
    const command = rowsCommand(2000);
    const model = replayExecute(dir, command);
    // `node -e` runs inline code: only an allow rule lets it run without a person.
    // The default data dir is outside the workspace: $XDG_STATE_HOME/aibuddy/<workspace id>.
    const state = join(dir, 'state');
    const r = await runCli(
      [
        'run',
        'print a lot',
        '--model',
        model,
        '--workspace',
        workspace,
        '--task-id',
        'long',
        '--events',
        events,
        '--allow',
        'node -e',
      ],
      {
        env: cleanEnv({ XDG_STATE_HOME: state }),
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);

    const log = readEvents(events);
    const result = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'big')!;
    const full = result.client.stdout as string;
    expect(full.length).toBe(80_000);
    expect(full.split('\n').filter(Boolean)).toHaveLength(2000);

    // What the model was sent, read from the request it received after the call.
    const sent = toolResultsInPrompt(log.filter((e) => e.type === 'model-request').at(-1)!.messages).find(
      (p) => p.toolCallId === 'big',
    );
    expect(sent.output).toEqual(result.model);
    const text = String(sent.output.value);
    expect(text.length).toBeLessThan(31_000);
    expect(text).toContain('row 00001');
    expect(text).toContain('row 02000');
    expect(text).not.toContain('row 01000');
    expect(text).toMatch(/omitted/);

    // The compactor kept the raw result; view-call prints it byte for byte.
    const compaction = log.find((e) => e.type === 'compaction' && e.toolCallId === 'big')!;
    const dataDir = join(state, 'aibuddy', workspaceId(workspace));
    expect(compaction.pointer).toBe(join(dataDir, 'compacted_outputs', 'long', 'big.json'));
    expect(existsSync(join(workspace, '.aibuddy'))).toBe(false);
    expect(JSON.parse(readFileSync(compaction.pointer, 'utf8')).output.stdout).toBe(full);
    const view = await runCli(['view-call', 'big', '--task-id', 'long', '--data-dir', dataDir]);
    expect(view.code).toBe(0);
    expect(view.stdout).toBe(full);
    const missing = await runCli(['view-call', 'nope', '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/\[projection\] no saved result for call "nope".*Fix:/);
  });
});
