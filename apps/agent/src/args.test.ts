import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './args.js';
import { ArgumentError } from './errors.js';

function error(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (e) {
    expect(ArgumentError.isInstance(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
}

describe('parseCommandLine', () => {
  it('parses run with every option', () => {
    const parsed = parseCommandLine([
      'run',
      'fix it',
      '--workspace',
      'ws',
      '--model',
      'openai-compatible:llama',
      '--base-url',
      'http://127.0.0.1:1/v1',
      '--mcp-config',
      'm.json',
      '--skills',
      'sk',
      '--task-id',
      't-1',
      '--data-dir',
      'dd',
      '--events',
      'e.jsonl',
      '--yes',
      '--defer-path',
      'native',
    ]);
    expect(parsed).toEqual({
      command: 'run',
      task: 'fix it',
      options: {
        workspace: 'ws',
        model: 'openai-compatible:llama',
        baseUrl: 'http://127.0.0.1:1/v1',
        mcpConfig: 'm.json',
        skills: 'sk',
        taskId: 't-1',
        dataDir: 'dd',
        events: 'e.jsonl',
        confirm: 'approve',
        deferPath: 'native',
      },
    });
  });

  it('run without a task is the demo; --no rejects; defer path defaults to auto', () => {
    expect(parseCommandLine(['run', '--no'])).toMatchObject({
      command: 'run',
      task: undefined,
      options: { confirm: 'reject', deferPath: 'auto' },
    });
  });

  it('parses tools --json and view-call', () => {
    expect(parseCommandLine(['tools', '--json', '--defer-path', 'active-tools'])).toMatchObject({
      command: 'tools',
      json: true,
      options: { deferPath: 'active-tools' },
    });
    expect(parseCommandLine(['view-call', 'call-1', '--task-id', 't', '--data-dir', 'd'])).toEqual({
      command: 'view-call',
      toolCallId: 'call-1',
      taskId: 't',
      dataDir: 'd',
      workspace: undefined,
      json: false,
    });
  });

  it('help in every form', () => {
    expect(parseCommandLine([])).toEqual({ command: 'help', topic: undefined });
    expect(parseCommandLine(['--help'])).toEqual({ command: 'help', topic: undefined });
    expect(parseCommandLine(['run', '-h'])).toEqual({ command: 'help', topic: 'run' });
  });

  it.each([
    [['fly'], /unknown command "fly"/],
    [['run', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['run', 'x', '--yes', '--no'], /--yes and --no contradict/],
    [['tools', '--defer-path', 'sideways'], /--defer-path must be auto, native or active-tools \(got "sideways"\)/],
    [['run', 'x', '--model', 'gpt-5'], /not a model spec.*anthropic:MODEL/],
    [['run', 'x', '--model', 'mistral:large'], /not a model spec/],
    [['run', 'x', '--model', 'anthropic:'], /not a model spec/],
    [['run', 'x', '--base-url', 'localhost'], /not a URL/],
    [['run', 'x', '--base-url', 'ftp://x'], /http:\/\/ or https:\/\//],
    [['run', 'fix', 'the', 'bug'], /Quote the task/],
    [['run', '  '], /the task is empty/],
    [['run', 'x', '--task-id', '../etc'], /may only contain/],
    [['run', 'x', '--workspace', ''], /--workspace needs a value/],
    [['run', 'x', '--workspace'], /argument missing/],
    [['tools', 'extra'], /takes no task/],
    [['view-call'], /needs the tool call id/],
    [['view-call', 'a', 'b'], /takes one tool call id/],
  ])('refuses %j naming the fix', (argv, message) => {
    expect(error(argv as string[])).toMatch(message as RegExp);
  });
  it('--mcp-wait takes seconds, 0 or more, and is absent by default', () => {
    expect(parseCommandLine(['run', 'x', '--mcp-wait', '0'])).toMatchObject({ options: { mcpWaitSeconds: 0 } });
    expect(parseCommandLine(['run', 'x', '--mcp-wait', '2.5'])).toMatchObject({ options: { mcpWaitSeconds: 2.5 } });
    expect((parseCommandLine(['run', 'x']) as { options: object }).options).not.toHaveProperty('mcpWaitSeconds');
    for (const bad of ['-1', 'soon', 'Infinity', '1e999'])
      expect(error(['run', 'x', `--mcp-wait=${bad}`])).toMatch(/--mcp-wait must be a number of seconds, 0 or more/);
  });
  it('collects every --allow and the --config file', () => {
    const parsed = parseCommandLine(['tools', '--allow', 'npm test', '--allow', 'cargo build', '--config', 'c.json']);
    expect(parsed).toMatchObject({ command: 'tools', options: { allow: ['npm test', 'cargo build'], config: 'c.json' } });
    expect((parseCommandLine(['tools']) as { options: object }).options).not.toHaveProperty('allow');
    expect(error(['run', '--allow', ' '])).toMatch(/--allow needs a command prefix/);
  });
});
