// Daemons (issue 12, item 7): ten ways a command tries to outlive its call, and a SIGKILL of the
// host process itself. In every mode the sandbox reports as tree-killing (`describe().killsTree`),
// nothing survives. Survivors are looked for on the host by their command line in /proc.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemTool } from '@aibuddy/test-utils/system-tools';
import type { NodeSandboxConfig } from './config.js';
import { createNodeSandbox } from './node-sandbox.js';
import { findProcesses, survivors } from './__fixtures__/find-processes.js';

// Needs bwrap: skipped with the reason where missing, required in CI (see system-tools.ts).
const bwrap = systemTool('bwrap');

let root: string;
// A distinct number per run so parallel test files never see each other's sleepers.
const SEED = 700_000 + (process.pid % 90_000) * 10;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'aibuddy-daemons-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The ten daemon variants: a name, the shell that starts it (sleeping `n` seconds), and its command line. */
function variants(n: number): [string, string, string[]][] {
  const s = (k: number) => String(n + k);
  return [
    ['setsid -f', `setsid -f sleep ${s(0)}`, ['sleep', s(0)]],
    ['env -u MARKER setsid -f', `env -u AIBUDDY_SANDBOX_RUN setsid -f sleep ${s(1)}`, ['sleep', s(1)]],
    ['exec -c (empty env)', `setsid bash -c 'exec -c sleep ${s(2)}' > /dev/null 2>&1 &`, ['sleep', s(2)]],
    ['nohup &', `nohup sleep ${s(3)} > /dev/null 2>&1 &`, ['sleep', s(3)]],
    ['disown', `sleep ${s(4)} > /dev/null 2>&1 & disown`, ['sleep', s(4)]],
    ['double fork', `( ( sleep ${s(5)} > /dev/null 2>&1 & ) & )`, ['sleep', s(5)]],
    [
      'fork + setsid + execve with an empty env (perl)',
      `perl -e 'use POSIX; my $p = fork(); if ($p == 0) { POSIX::setsid(); open STDIN, "<", "/dev/null"; open STDOUT, ">", "/dev/null"; open STDERR, ">", "/dev/null"; %ENV = (); exec "sleep", "${s(6)}" }'`,
      ['sleep', s(6)],
    ],
    ['a daemon that closes its fds', `setsid bash -c 'exec 0<&- 1>&- 2>&-; exec sleep ${s(7)}' &`, ['sleep', s(7)]],
    ['sleep & with a trap', `bash -c 'trap "" TERM HUP INT; sleep ${s(8)}' > /dev/null 2>&1 &`, ['sleep', s(8)]],
    ['subshell that renames itself', `( exec -a kworker-aibuddy sleep ${s(9)} > /dev/null 2>&1 & )`, ['kworker-aibuddy', s(9)]],
  ];
}

const MODES: [string, Partial<NodeSandboxConfig>, string][] = [
  ['bubblewrap', { isolation: 'required' }, 'bubblewrap'],
  ['PID namespace (isolation off)', { isolation: 'off' }, 'pid-namespace'],
];

describe.each(MODES)('daemons, %s', (_name, mode, expected) => {
  if (mode.isolation === 'required' && bwrap.skip) {
    it.skip(`${bwrap.reason}`, () => {});
    return;
  }
  const offset = expected === 'bubblewrap' ? 0 : 100;

  it('the mode is reported as tree-killing', async () => {
    const sandbox = await createNodeSandbox({ type: 'node', root, ...mode });
    expect(sandbox.describe()).toMatchObject({ mode: expected, killsTree: true });
  });

  it('ten daemon variants: all started, none survives the call', async () => {
    const sandbox = await createNodeSandbox({ type: 'node', root, ...mode, killGraceMs: 500 });
    const list = variants(SEED + offset);
    const seen = new Map<string, number>();
    // Start them all, then report from inside which ones run (so the check can fail), then exit.
    const script = `${list.map(([, start]) => start).join('\n')}\nsleep 1\necho started\nsleep 2`;
    const result = await sandbox.exec(script, {
      timeoutMs: 60_000,
      onStdout: () => {
        for (const [name, , args] of list) seen.set(name, findProcesses(...args).length);
      },
    });
    expect(result.stdout).toBe('started\n');
    expect(result.isolation).toBe(expected);
    for (const [name] of list) expect(seen.get(name), `${name} was running while the command ran`).toBe(1);
    for (const [name, , args] of list) expect(await survivors(args), `${name} survived`).toEqual([]);
  });

  it('SIGKILL of the host process: no survivor', async () => {
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    expect(existsSync(dist), `${dist} is missing: build @aibuddy/sandbox-node first`).toBe(true);
    const script = join(root, `host-${expected}.mjs`);
    const n = SEED + offset + 50;
    writeFileSync(
      script,
      `const { createNodeSandbox } = await import(${JSON.stringify(dist)});
const sandbox = await createNodeSandbox({ type: 'node', root: process.argv[2], ...JSON.parse(process.argv[3]) });
await sandbox.exec('setsid -f sleep ${n}; sleep ${n + 1} & echo started; sleep ${n + 2}', { timeoutMs: 600000, onStdout: () => console.log('ready') });
`,
    );
    const host = spawn(process.execPath, [script, root, JSON.stringify(mode)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((ready, fail) => {
      host.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && ready());
      host.on('exit', (code) => fail(new Error(`host exited early (${String(code)})`)));
    });
    // `sleep n+2` starts just after "started" is printed: wait for it rather than race it.
    for (const k of [0, 1, 2])
      await vi.waitFor(() => expect(findProcesses('sleep', String(n + k)), `sleep ${n + k} was running`).toHaveLength(1), {
        timeout: 5000,
        interval: 20,
      });
    host.kill('SIGKILL');
    await new Promise((done) => host.on('exit', done));
    for (const k of [0, 1, 2]) expect(await survivors(['sleep', String(n + k)]), `sleep ${n + k} survived the host`).toEqual([]);
  });
});

describe('a plain process group says it is not tree-killing', () => {
  it('describe() reports killsTree: false with the reason', async () => {
    const sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'off', pidNamespace: false });
    expect(sandbox.describe()).toMatchObject({ mode: 'none', killsTree: false });
    expect(spawnSync('true').status).toBe(0);
  });
});
