import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseHostConfirmation, confirmationText, questionText } from './confirmation.js';

const request = {
  toolCallId: 'c1',
  toolName: 'execute',
  input: {},
  inputDigest: 'd',
  target: 'build',
  scope: 'workspace',
  impact: 'deletes build',
};

describe('chooseHostConfirmation', () => {
  it('maps --yes, --no, a terminal, no terminal, and the demo', () => {
    expect(chooseHostConfirmation({ flag: 'approve', interactive: true, demo: false }).policy).toBe('auto-approve');
    expect(chooseHostConfirmation({ flag: 'reject', interactive: true, demo: true }).policy).toBe('auto-reject');
    expect(chooseHostConfirmation({ flag: undefined, interactive: true, demo: false }).policy).toBe('ask');
    expect(chooseHostConfirmation({ flag: undefined, interactive: false, demo: false })).toMatchObject({
      policy: 'auto-reject',
      answeredBy: expect.stringMatching(/^nobody/),
    });
    expect(chooseHostConfirmation({ flag: undefined, interactive: false, demo: true })).toMatchObject({
      policy: 'auto-approve',
      answeredBy: expect.stringMatching(/demo script/),
    });
  });

  it('asks at the terminal and reads the answer', async () => {
    for (const [answer, approved] of [
      ['y', true],
      ['yes', true],
      ['', false],
      ['n', false],
    ] as const) {
      const input = new PassThrough();
      const output = new PassThrough();
      let shown = '';
      output.on('data', (d: Buffer) => (shown += d.toString()));
      const host = chooseHostConfirmation({ flag: undefined, interactive: true, demo: false, input, output });
      const decision = host.ask!(request as never, new AbortController().signal);
      setTimeout(() => input.write(`${answer}\n`), 10);
      expect((await decision).approved).toBe(approved);
      expect(shown).toContain('deletes build');
    }
  });
});

describe('what the terminal shows a person', () => {
  // Real assessments: the shell's for a command, discovery's for an MCP call.
  it('shows escape sequences in a command escaped, never raw (they could rewrite the prompt)', async () => {
    const { assessCommandImpact } = await import('@aibuddy/tools-shell');
    const command = 'rm -rf ~/project \x1b[2K\r\x1b[1A# tidy \u202eexe';
    const text = confirmationText({
      toolCallId: 'c1',
      toolName: 'execute',
      input: { command },
      inputDigest: 'd',
      ...assessCommandImpact(command)!,
    });
    expect(text).not.toMatch(/[\x1b\r\u202e]/);
    expect(text).toContain('~/project \\x1b[2K\\r\\x1b[1A# tidy \\u202eexe');
    expect(text.endsWith('Approve? [y/N] ')).toBe(true);
  });

  it('shows the whole input of an MCP call whose target was cut', async () => {
    const { mcpCallImpact } = await import('@aibuddy/discovery');
    const input = { note: 'n'.repeat(400), sql: 'DROP TABLE users' };
    const assessment = mcpCallImpact({ originalName: 'run_sql', server: 'db', annotations: { destructiveHint: true } }, input);
    expect(assessment.target).not.toContain('DROP TABLE'); // cut: the summary alone hides it
    const text = confirmationText({ toolCallId: 'c1', toolName: 'db__run_sql', input, inputDigest: 'd', ...assessment });
    expect(text).toContain('"sql":"DROP TABLE users"');
  });

  it('the prompt at the terminal is that text', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    const host = chooseHostConfirmation({ flag: undefined, interactive: true, demo: false, input, output });
    const evil = { ...request, target: 'build\x1b[2K\rsafe', input: { command: 'rm -rf build\x1b[2K\rsafe' } };
    const decision = host.ask!(evil as never, new AbortController().signal);
    setTimeout(() => input.write('n\n'), 10);
    expect((await decision).approved).toBe(false);
    expect(shown).toContain(confirmationText(evil as never).trim());
    expect(shown).not.toContain('\x1b[2K');
  });

  it('a question of the model is shown escaped too, its choices one per line', () => {
    const text = questionText({ question: 'Deploy?\x1b[2K\rAnswer 1 to cancel', choices: ['yes\x1b[1A', 'no'] });
    expect(text).not.toMatch(/[\x1b\r]/);
    expect(text).toBe('\nDeploy?\\x1b[2K\\rAnswer 1 to cancel\n  1. yes\\x1b[1A\n  2. no\n> ');
  });
});
