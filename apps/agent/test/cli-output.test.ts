// The command line as a program among others: its output through a real pipe, its refusals of bad
// workspaces (exit 2, nothing created), its wording (SIGTERM named, one prefix, plurals).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cleanEnv, replay, replayExecute, rowsCommand, runCli, startCli, tempDir, waitFor, workspaceIn } from './helpers.js';

/** Runs `sh -c script` and collects its stdout (the pipeline's last command). */
function shell(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { env, cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the CLI through a real pipe', { timeout: 120_000 }, () => {
  it('view-call of a result over 64 KiB reaches a slow reader complete (stdout drained before exit)', async () => {
    const dir = tempDir();
    const workspace = workspaceIn(dir);
    const dataDir = join(dir, 'data');
    // 3,000 lines of 40 characters: 120,000 bytes, well past a 64 KiB pipe buffer.
    const command = rowsCommand(3000);
    const model = replayExecute(dir, command);
    const run = await runCli([
      'run',
      'print a lot',
      '--model',
      model,
      '--workspace',
      workspace,
      '--task-id',
      'pipe',
      '--data-dir',
      dataDir,
      // `node -e` runs inline code: without a terminal only an allow rule lets it run.
      '--allow',
      'node -e',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // The reader starts late, so the writer fills the pipe and must wait for it before exiting.
    const r = await shell(
      `"${process.execPath}" "${CLI}" view-call big --task-id pipe --data-dir "${dataDir}" | (sleep 1; wc -c)`,
      cleanEnv(),
    );
    expect(r.stderr).toBe('');
    expect(Number(r.stdout.trim())).toBe(120_000);
  });
});

describe('a reader that goes away (aibuddy run | head -1)', { timeout: 120_000 }, () => {
  it('stops the run like a stop: no stack trace, the running command killed', async () => {
    const dir = tempDir();
    const marker = `tick-${Math.floor(Math.random() * 90000 + 10000)}`;
    // 60 s of live output unless stopped; the reader leaves once the command runs.
    const command = `for i in $(seq 1 600); do echo ${marker}; sleep 0.1; done`;
    const model = replay(dir, [
      { toolCalls: [{ toolName: 'execute', input: { command }, id: 'long' }] },
      { text: 'not reached' },
    ]);
    const started = Date.now();
    const r = await shell(
      `"${process.execPath}" "${CLI}" run slow --yes --model "${model}" --workspace "${workspaceIn(dir)}" | ` +
        // "[t]ick-…" matches the command's line but not this script's own.
        `(head -1; until pgrep -f "echo [${marker[0]}]${marker.slice(1)}" >/dev/null; do sleep 0.1; done)`,
      cleanEnv(),
    );
    expect(r.stdout.split('\n')[0]).toMatch(/^workspace: /);
    expect(r.stderr).not.toMatch(/Unhandled|EPIPE\n\s+at |node:events/);
    expect(r.stderr).toMatch(/aibuddy: the reader of the output went away; stopping the run/);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(spawnSync('pgrep', ['-f', `echo ${marker}`], { encoding: 'utf8' }).stdout.trim()).toBe('');
  });

  it('exits with 141 (as a shell reports a program ended by SIGPIPE)', async () => {
    const dir = tempDir();
    const model = replay(dir, [{ text: 'a line\n'.repeat(2000) }]);
    const r = await shell(
      `bash -c '"${process.execPath}" "${CLI}" run many --model "${model}" --workspace "${workspaceIn(dir)}" | head -1 >/dev/null; echo "status=\${PIPESTATUS[0]}"'`,
      cleanEnv(),
    );
    expect(r.stdout).toContain('status=141');
    expect(r.stderr).not.toMatch(/Unhandled|node:events/);
  });
});

describe('--events on a disk that takes no writes', { timeout: 60_000 }, () => {
  it('warns once, keeps running to the end (exit 0) and says how many events were not written', async () => {
    const dir = tempDir();
    const model = replay(dir, [
      { toolCalls: [{ toolName: 'execute', input: { command: 'echo hi > made.txt' }, id: 'make' }] },
      { text: 'made' },
    ]);
    const workspace = workspaceIn(dir);
    // /dev/full answers every write with ENOSPC, as a full disk does.
    const r = await runCli(['run', 'make', '--yes', '--model', model, '--workspace', workspace, '--events', '/dev/full']);
    expect(r.stderr).not.toMatch(/unexpected failure| {4}at /);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✔ done in 2 model calls');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
    const warnings = r.stderr.match(/cannot write the event log/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^aibuddy: \[projection\] --events \/dev\/full: cannot write the event log \(ENOSPC.*the run goes on\. Fix: /m,
    );
    expect(r.stderr).toMatch(/--events \/dev\/full: \d+ events not written\./);
  });
});

describe('--workspace is checked before anything runs', { timeout: 60_000 }, () => {
  const model = (dir: string) => replay(dir, [{ text: 'done' }]);

  it('a missing folder exits 2 and is not created', async () => {
    const dir = tempDir();
    const missing = join(dir, 'typo', 'ws');
    const r = await runCli(['run', 'x', '--model', model(dir), '--workspace', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^aibuddy: --workspace .*no such folder/);
    expect(r.stderr).toContain('mkdir -p');
    expect(existsSync(join(dir, 'typo'))).toBe(false);
  });

  it('a file instead of a folder exits 2', async () => {
    const dir = tempDir();
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    const r = await runCli(['run', 'x', '--model', model(dir), '--workspace', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a folder/);
  });

  it('an unreadable folder exits 2 (checked as an unprivileged user; root reads everything)', async () => {
    const dir = tempDir();
    const ws = join(dir, 'locked');
    mkdirSync(ws);
    chmodSync(ws, 0o000);
    chmodSync(dir, 0o755);
    const replayFile = model(dir);
    chmodSync(join(dir, 'replay.json'), 0o644);
    const args = [CLI, 'run', 'x', '--model', replayFile, '--workspace', ws];
    const asRoot = process.getuid?.() === 0;
    const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
    if (asRoot && !hasSetpriv) {
      if (process.env.CI) throw new Error('CI runs as root and needs setpriv (util-linux) to test an unreadable workspace');
      console.warn('skipped: root without setpriv cannot test an unreadable workspace');
      return;
    }
    const r = asRoot
      ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...args], {
          env: cleanEnv({ HOME: tmpdir() }),
          cwd: tmpdir(),
          encoding: 'utf8',
        })
      : spawnSync(process.execPath, args, { env: cleanEnv(), cwd: tmpdir(), encoding: 'utf8' });
    chmodSync(ws, 0o755);
    expect(r.stderr).toMatch(/not readable by this user/);
    expect(r.status).toBe(2);
  });

  it('/ is refused with exit 2 and the sandbox says why', async () => {
    const dir = tempDir();
    const r = await runCli(['run', 'x', '--model', model(dir), '--workspace', '/']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^aibuddy: --workspace refused: /m);
    expect(r.stderr).not.toMatch(/unexpected failure/);
  });
});

describe('messages', { timeout: 120_000 }, () => {
  it('an argument error carries one prefix', async () => {
    const r = await runCli(['run', '   ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^aibuddy run: the task is empty/);
    expect(r.stderr).not.toContain('aibuddy: aibuddy');
  });

  it('SIGTERM is reported as SIGTERM, not SIGINT', async () => {
    const dir = tempDir();
    const workspace = workspaceIn(dir);
    const model = replay(dir, [
      { toolCalls: [{ toolName: 'execute', input: { command: 'echo started; sleep 30' }, id: 'slow' }] },
      { text: 'x' },
    ]);
    const run = startCli(['run', 'wait', '--model', model, '--workspace', workspace]);
    await waitFor(() => run.output().stdout.includes('│ started'), 20_000, 'the command to start');
    run.child.kill('SIGTERM');
    const result = await run.result;
    expect(result.stderr).toMatch(/stopping on SIGTERM/);
    expect(result.stderr).not.toMatch(/SIGINT/);
    expect(result.stdout).toMatch(/model: +replay:/);
  });
});
