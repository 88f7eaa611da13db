// Helpers of the end-to-end tests: they spawn the BUILT command line (`dist/cli.js`), exactly as a
// user runs it, with a clean environment (no API keys) and temporary folders.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const agentRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(agentRoot, '../..');
export const CLI = join(agentRoot, 'dist', 'cli.js');
export const fixtures = join(agentRoot, 'test', 'fixtures');

/** An environment without provider keys or base URLs, so nothing reaches a real API. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/^(ANTHROPIC|OPENAI|OPENAI_COMPATIBLE)_/.test(k) || k.startsWith('AIBUDDY_')) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ChildProcess;
  result: Promise<CliResult>;
  /** Output so far. */
  output(): { stdout: string; stderr: string };
}

/** Spawns `node dist/cli.js ...args`; kills it after `timeoutMs` so a broken test never hangs. */
export function startCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "pnpm build" (the root test command builds first).`);
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? tmpdir(),
    env: options.env ?? cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
  const result = new Promise<CliResult>((resolveResult) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveResult({ code, signal, stdout, stderr });
    });
  });
  return { child, result, output: () => ({ stdout, stderr }) };
}

/** Runs the CLI to the end. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return startCli(args, options).result;
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'aibuddy-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a replay script and returns `replay:<file>`. */
/** A command printing `lines` numbered lines of 40 characters (`row 00001 xxx…`). */
export function rowsCommand(lines: number): string {
  return `node -e "for (let i = 1; i <= ${lines}; i++) console.log('row ' + String(i).padStart(5, '0') + ' ' + 'x'.repeat(29))"`;
}

/** A replay model that runs `command` through execute (call id `big`), then answers "seen". */
export function replayExecute(dir: string, command: string): string {
  return replay(dir, [{ toolCalls: [{ toolName: 'execute', input: { command }, id: 'big' }] }, { text: 'seen' }]);
}

export function replay(dir: string, steps: unknown[]): string {
  const file = join(dir, 'replay.json');
  writeFileSync(file, JSON.stringify({ steps }));
  return `replay:${file}`;
}

/** Every event of a JSONL log. */
export function readEvents(file: string): Array<Record<string, any>> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);
}

/** Waits until `check` returns a value (polling), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a process id is alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Creates `<dir>/ws` and returns it: the CLI refuses a `--workspace` that does not exist. */
export function workspaceIn(dir: string, name = 'ws'): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}
