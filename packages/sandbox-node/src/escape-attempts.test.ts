// Adversarial confinement tests: every attempt to read, create or change something outside the
// workspace through any of the seven operations, including links prepared from inside `exec`.
// After each test the outside folders must be byte-for-byte unchanged and no result may carry
// the outside secret.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxError, SandboxNotAFileError, SandboxPathError, type ISandbox } from '@aibuddy/sandbox';
import { atomicWrite } from './atomic-write.js';
import { createNodeSandbox } from './node-sandbox.js';
import { locate, releaseLocated } from './resolve-at.js';
import { RootHandle } from './root-handle.js';
// Needs bwrap and rg: skipped with the reason where missing, required in CI (see system-tools.ts).
import { systemTool } from '@aibuddy/test-utils/system-tools';
const bwrap = systemTool('bwrap');
const rg = systemTool('rg');

const SECRET = 'TOP-SECRET-0xC0FFEE';

let base: string;
let ws: string;
let outside: string;
let evil: string;
let before: string;
let sandbox: ISandbox;

/** Everything outside the root: names, types, sizes, contents, mtimes and link targets. */
function snapshot(): string {
  const lines: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const st = lstatSync(abs);
      const key = `${rel}/${name}`;
      if (st.isDirectory()) {
        lines.push(`${key}/ ${st.mtimeMs}`);
        walk(abs, key);
      } else if (st.isFile()) {
        lines.push(`${key} ${st.size} ${st.mtimeMs} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`);
      } else lines.push(`${key} other ${st.mode}`);
    }
  };
  lines.push(`base: ${readdirSync(base).sort().join(',')}`);
  walk(outside, 'outside');
  walk(evil, 'ws-evil');
  return lines.join('\n');
}

async function outcome(run: () => Promise<unknown>): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error };
  }
}

/** The attempt must reject with SandboxPathError (and therefore carry no outside content). */
async function expectRefused(
  run: () => Promise<unknown>,
  check: (e: unknown) => boolean = SandboxPathError.isInstance,
): Promise<void> {
  const { value, error } = await outcome(run);
  expect(error, `expected a refusal, got ${JSON.stringify(value)}`).toBeDefined();
  expect(check(error), String(error)).toBe(true);
  expect(String((error as Error).message)).not.toContain(SECRET);
}

/** The attempt may succeed or fail, but nothing it returns may carry the outside secret. */
async function expectNoLeak(run: () => Promise<unknown>): Promise<unknown> {
  const { value, error } = await outcome(run);
  expect(JSON.stringify(value ?? null)).not.toContain(SECRET);
  if (error) expect(SandboxError.isInstance(error), String(error)).toBe(true);
  return value ?? error;
}

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'aibuddy-escape-'));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  evil = join(base, 'ws-evil');
  for (const dir of [ws, outside, join(outside, 'dir'), evil, join(ws, 'sub'), join(ws, '.git', 'hooks')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(outside, 'dir', 'inner.txt'), `${SECRET} inner\n`);
  writeFileSync(join(evil, 'evil.txt'), `${SECRET} evil\n`);
  writeFileSync(join(ws, 'ok.txt'), 'inside\n');
  writeFileSync(join(ws, '.git', 'config'), '[core]\n');
  symlinkSync('../outside', join(ws, 'link-out'));
  symlinkSync(outside, join(ws, 'link-out-abs'));
  symlinkSync('../outside/secret.txt', join(ws, 'link-secret'));
  symlinkSync('chain2', join(ws, 'chain1'));
  symlinkSync('sub/chain3', join(ws, 'chain2'));
  symlinkSync('../../outside/secret.txt', join(ws, 'sub', 'chain3'));
  symlinkSync('../outside/does-not-exist.txt', join(ws, 'dangling-out'));
  symlinkSync('../outside/new-dir', join(ws, 'dangling-dir-out'));
  symlinkSync('loop2', join(ws, 'loop1'));
  symlinkSync('loop1', join(ws, 'loop2'));
  symlinkSync('/', join(ws, 'root-link'));
  symlinkSync('../ws-evil', join(ws, 'prefix-link'));
  symlinkSync('ok.txt', join(ws, 'inside-link'));
  linkSync(join(outside, 'secret.txt'), join(ws, 'hard-secret'));
  spawnSync('mkfifo', [join(ws, 'fifo')]);
  // File operations are confined the same way in every mode; without bubblewrap they run unconfined
  // here and the exec tests that need it are skipped.
  sandbox = await createNodeSandbox({
    type: 'node',
    root: ws,
    isolation: bwrap.available ? 'required' : 'off',
    killGraceMs: 200,
  });
  before = snapshot();
});

afterEach(async () => {
  try {
    await sandbox.close?.();
    expect(snapshot()).toBe(before);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

describe('readFile escapes', () => {
  const attempts: [string, (b: string) => string][] = [
    ['.. to a sibling folder', () => '../outside/secret.txt'],
    ['absolute path outside', (b) => `${b}/outside/secret.txt`],
    ['prefix trick (ws-evil next to ws)', () => '../ws-evil/evil.txt'],
    ['absolute prefix trick', (b) => `${b}/ws-evil/evil.txt`],
    ['climb back through a subfolder', () => 'sub/../../outside/secret.txt'],
    ['relative symlinked folder', () => 'link-out/secret.txt'],
    ['absolute symlinked folder', () => 'link-out-abs/dir/inner.txt'],
    ['symlink to a file outside', () => 'link-secret'],
    ['chain of three symlinks', () => 'chain1'],
    ['dangling symlink out', () => 'dangling-out'],
    ['symlink loop', () => 'loop1'],
    ['symlink to /', () => 'root-link/etc/hostname'],
    ['symlink to the prefix sibling', () => 'prefix-link/evil.txt'],
    ['null byte', () => 'ok.txt\0../../outside/secret.txt'],
    ['~ home', () => '~/.bashrc'],
    ['Windows drive', () => 'C:\\Windows\\win.ini'],
    ['UNC path', () => '\\\\server\\share\\secret.txt'],
  ];
  for (const [name, path] of attempts) {
    it(name, async () => {
      await expectRefused(() => sandbox.readFile(path(base)));
    });
  }

  it('a FIFO is refused as not a regular file, without blocking', async () => {
    await expectRefused(() => sandbox.readFile('fifo'), SandboxNotAFileError.isInstance);
  });

  it('a symlink that stays inside still works (control)', async () => {
    expect((await sandbox.readFile('inside-link')).content).toBe('inside');
  });
});

describe('writeFile escapes', () => {
  const attempts: [string, (b: string) => string][] = [
    ['through a symlinked folder', () => 'link-out/new.txt'],
    ['through a dangling symlink', () => 'dangling-out'],
    ['through a dangling folder symlink', () => 'dangling-dir-out/x.txt'],
    ['over a symlink to an outside file', () => 'link-secret'],
    ['over a symlink chain', () => 'chain1'],
    ['.. to a sibling', () => '../outside/new.txt'],
    ['through the prefix symlink', () => 'prefix-link/new.txt'],
    ['absolute prefix trick', (b) => `${b}/ws-evil/new.txt`],
    ['through a symlink to /', () => 'root-link/tmp/aibuddy-pwned.txt'],
  ];
  for (const [name, path] of attempts) {
    it(name, async () => {
      await expectRefused(() => sandbox.writeFile(path(base), 'pwned'));
    });
  }

  it('over a hard link to an outside file: the link is replaced, the outside file is unchanged', async () => {
    await sandbox.writeFile('hard-secret', 'replaced');
    expect(readFileSync(join(ws, 'hard-secret'), 'utf8')).toBe('replaced');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('onto a FIFO is refused', async () => {
    await expectRefused(() => sandbox.writeFile('fifo', 'x'), SandboxNotAFileError.isInstance);
  });

  it('a symlink swapped in after the path check is replaced, never written through', async () => {
    const handle = new RootHandle(ws, ws);
    const target = (await locate(handle.acquire(), 'swap.txt', { create: true, operation: 'writeFile' }))!;
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'swap.txt')); // the race: link appears after the check
    await atomicWrite(target, Buffer.from('mine'), undefined, undefined, 'writeFile');
    await releaseLocated(target);
    handle.release();
    handle.close();
    expect(lstatSync(join(ws, 'swap.txt')).isFile()).toBe(true);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });
});

describe('editFile escapes', () => {
  for (const [name, path] of [
    ['symlink to an outside file', 'link-secret'],
    ['file in a symlinked folder', 'link-out/secret.txt'],
    ['symlink chain', 'chain1'],
    ['.. path', '../outside/secret.txt'],
  ] as const) {
    it(name, async () => {
      await expectRefused(() => sandbox.editFile(path, { oldText: SECRET, newText: 'pwned' }));
    });
  }

  it('a hard link to an outside file: the edit lands inside only', async () => {
    await sandbox.editFile('hard-secret', { oldText: 'TOP', newText: 'EDITED' });
    expect(readFileSync(join(ws, 'hard-secret'), 'utf8')).toMatch(/^EDITED/);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });
});

describe('ls escapes', () => {
  for (const path of ['..', 'link-out', 'link-out-abs', 'root-link', '../ws-evil', 'prefix-link', '/']) {
    it(`ls ${path}`, async () => {
      await expectRefused(() => sandbox.ls(path));
    });
  }

  it('ls of the root reports symlinks as symlinks without following them', async () => {
    const result = await sandbox.ls('.');
    expect(result.entries.find((e) => e.name === 'link-out')).toMatchObject({ type: 'symlink' });
    expect(result.entries.find((e) => e.name === 'fifo')).toMatchObject({ type: 'other' });
  });
});

describe('glob escapes', () => {
  it('**/* never lists files behind symlinks', async () => {
    const result = (await expectNoLeak(() => sandbox.glob('**/*'))) as { files: string[] };
    // Only the regular files of the root: no symlink, FIFO or anything behind a link.
    expect(result.files).toEqual(['hard-secret', 'ok.txt']);
  });
  it('**/secret.txt finds nothing outside', async () => {
    expect(((await sandbox.glob('**/secret.txt')) as { files: string[] }).files).toEqual([]);
  });
  it('a pattern climbing with ..', async () => {
    await expectRefused(() => sandbox.glob('../outside/*'));
  });
  it('an absolute pattern', async () => {
    await expectRefused(() => sandbox.glob(`${base}/outside/*`), SandboxError.isInstance);
  });
  it('a symlinked search folder', async () => {
    await expectRefused(() => sandbox.glob('*', { path: 'link-out' }));
  });
  it('a literal prefix through a symlink', async () => {
    await expectRefused(() => sandbox.glob('link-out/*.txt'));
  });
});

describe('grep escapes', () => {
  for (const engine of ['ripgrep', 'javascript'] as const) {
    it.skipIf(engine === 'ripgrep' && rg.skip)(`${engine}: searching the root never follows symlinks out`, async () => {
      const sb =
        engine === 'ripgrep'
          ? sandbox
          : await createNodeSandbox({ type: 'node', root: ws, ripgrepPath: false, isolation: 'off' });
      // The host-made hard link is a regular file inside the root (its bytes are the workspace's
      // own, and a command under isolation cannot make one); everything else must stay unseen.
      const result = await sb.grep('SECRET');
      expect(result.engine).toBe(engine);
      expect(JSON.stringify(result.matches.filter((m) => m.path !== 'hard-secret'))).not.toContain(SECRET);
      expect(result.matches.map((m) => m.path)).toEqual(['hard-secret']);
    });
  }
  for (const path of ['link-secret', 'link-out', 'chain1', '..', `../outside`]) {
    it(`grep in ${path}`, async () => {
      await expectRefused(() => sandbox.grep('SECRET', { path }));
    });
  }
  it('a glob option that climbs out matches nothing outside', async () => {
    const result = (await expectNoLeak(() => sandbox.grep('SECRET', { glob: '../outside/*' }))) as { matches: unknown[] };
    expect(result.matches).toEqual([]);
  });
});

describe.skipIf(bwrap.skip)('exec escapes (bubblewrap)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('cwd through a symlink or ..', async () => {
    await expectRefused(() => sandbox.exec('true', { cwd: 'link-out' }));
    await expectRefused(() => sandbox.exec('true', { cwd: '..' }));
  });
  it('cat ../outside/secret.txt finds nothing', async () => {
    const result = await expectNoLeak(() =>
      sandbox.exec('cat ../outside/secret.txt; cat link-secret; cat link-out/dir/inner.txt'),
    );
    expect((result as { exitCode: number }).exitCode).not.toBe(0);
  });
  it('writing outside by path or absolute path fails', async () => {
    const result = await sandbox.exec(
      `echo pwned > ../outside/pwn.txt; echo pwned > ${outside}/secret.txt; touch ${evil}/x; echo done`,
    );
    expect(result.stdout).toBe('done\n');
  });
  it('writing elsewhere on the host fails (read-only)', async () => {
    const result = await sandbox.exec('touch /usr/aibuddy-pwned 2>&1; touch "$HOME/aibuddy-pwned" 2>&1; echo $?');
    expect(result.stdout).toMatch(/Read-only file system/);
  });
  it('a symlink made by a command, then used by readFile / writeFile / editFile / ls', async () => {
    const made = await sandbox.exec(`ln -s ../outside/secret.txt made-rel && ln -s ${outside} made-abs && echo ok`);
    expect(made.stdout).toBe('ok\n');
    await expectRefused(() => sandbox.readFile('made-rel'));
    await expectRefused(() => sandbox.writeFile('made-abs/new.txt', 'pwned'));
    await expectRefused(() => sandbox.editFile('made-rel', { oldText: 'TOP', newText: 'x' }));
    await expectRefused(() => sandbox.ls('made-abs'));
    await expectRefused(() => sandbox.grep('SECRET', { path: 'made-abs' }));
  });
  it('a hard link to an outside file cannot be made from inside', async () => {
    const result = await sandbox.exec(`ln ${outside}/secret.txt hl 2>&1; ln /etc/hostname hl2 2>&1; ls`);
    expect(result.stdout).not.toMatch(/^hl2?$/m);
    await expectRefused(
      () => sandbox.readFile('hl2'),
      (e) => SandboxError.isInstance(e) && (e as SandboxError).code === 'NOT_FOUND',
    );
  });
  it('a FIFO made by a command is refused by readFile and writeFile', async () => {
    await sandbox.exec('mkfifo made-fifo');
    await expectRefused(() => sandbox.readFile('made-fifo'), SandboxNotAFileError.isInstance);
    await expectRefused(() => sandbox.writeFile('made-fifo', 'x'), SandboxNotAFileError.isInstance);
  });
  it('a symlinked folder swapped in by a command is not followed by glob or grep', async () => {
    await sandbox.exec(`mkdir -p src && ln -s ${outside} src/lib`);
    expect((await sandbox.glob('src/**/*')).files).toEqual([]);
    expect((await sandbox.grep('SECRET', { path: 'src' })).matches).toEqual([]);
  });
  it('.git/hooks and .git/config stay read-only inside', async () => {
    const result = await sandbox.exec(
      'echo evil > .git/hooks/pre-commit; echo "[core] hooksPath=/tmp" >> .git/config; echo done',
    );
    expect(result.stderr.match(/Read-only file system/g)).toHaveLength(2);
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(readdirSync(join(ws, '.git', 'hooks'))).toEqual([]);
  });
  it('has no network, not even the host loopback', async () => {
    const open = await createNodeSandbox({ type: 'node', root: ws, isolation: 'off' });
    const host = await open.exec(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`, { timeoutMs: 5000 });
    expect(host.stdout).toBe('hello from the host\n'); // control: reachable without isolation
    const result = await sandbox.exec(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe('');
  });
  it('does not inherit host secrets', async () => {
    process.env.AIBUDDY_TEST_SECRET_TOKEN = SECRET;
    try {
      const result = await expectNoLeak(() => sandbox.exec('env'));
      expect((result as { stdout: string }).stdout).toMatch(/PATH=/);
    } finally {
      delete process.env.AIBUDDY_TEST_SECRET_TOKEN;
    }
  });
});

describe('exec escapes (unconfined)', () => {
  it('a hard link made by a command: writeFile and editFile replace it, the outside file is unchanged', async () => {
    const open = await createNodeSandbox({ type: 'node', root: ws, isolation: 'off' });
    const made = await open.exec('ln ../outside/secret.txt hl && echo ok');
    expect(made.stdout).toBe('ok\n');
    await open.editFile('hl', { oldText: 'TOP', newText: 'EDITED' });
    await open.writeFile('hl', 'replaced');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });
  it('a symlink made by a command is still refused by file operations', async () => {
    const open = await createNodeSandbox({ type: 'node', root: ws, isolation: 'off' });
    await open.exec('ln -s ../outside made && ln -s ../outside/secret.txt made-file');
    await expectRefused(() => open.readFile('made/secret.txt'));
    await expectRefused(() => open.writeFile('made/x.txt', 'x'));
    await expectRefused(() => open.editFile('made-file', { oldText: 'TOP', newText: 'x' }));
  });
});
