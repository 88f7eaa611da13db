import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseHostConfirmation } from './confirmation.js';

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
