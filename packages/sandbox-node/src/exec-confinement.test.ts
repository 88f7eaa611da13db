// bubblewrap hardening (issue 12, items 2 and 4): as root AND as an unprivileged user, a confined
// command has no effective capability, cannot remount the host read-write, and cannot reach a
// unix socket the host listens on under /tmp, /var/tmp or /run. Controls show each probe works
// (the host can connect; an unconfined command can connect).
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from './node-sandbox.js';
// Needs bwrap: skipped with the reason where missing, required in CI (see system-tools.ts).
import { systemTool } from '@aibuddy/test-utils/system-tools';
const bwrap = systemTool('bwrap');

const tag = `${process.pid}-${Date.now()}`;
const SOCKETS = [
  `/var/tmp/aibuddy-sock-${tag}.sock`,
  `/run/aibuddy-sock-${tag}.sock`,
  join(tmpdir(), `aibuddy-sock-${tag}.sock`),
];
let servers: Server[] = [];
let root: string;

/** A shell probe: capabilities, a remount attempt, a secret file, and a connect to every socket. */
const PROBE = [
  'grep CapEff /proc/self/status',
  'if mount -o remount,bind,rw / 2>/dev/null; then echo REMOUNT-OK; else echo REMOUNT-REFUSED; fi',
  'if touch /usr/aibuddy-probe 2>/dev/null; then echo HOST-WRITE-OK; else echo HOST-WRITE-REFUSED; fi',
  'echo "shadow:$(cat /etc/shadow 2>/dev/null | wc -c)"',
  ...SOCKETS.map(
    (path) =>
      `node -e 'const s=require("net").connect(process.argv[1]);s.on("connect",()=>{console.log("CONNECTED "+process.argv[1]);process.exit(0)});s.on("error",(e)=>{console.log("REFUSED "+e.code);process.exit(0)})' ${path}`,
  ),
].join('\n');

function connectFromHost(path: string): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = createConnection(path);
    socket.on('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.on('error', () => resolvePromise(false));
  });
}

function expectConfined(stdout: string): void {
  expect(stdout).toMatch(/^CapEff:\s+0000000000000000$/m);
  expect(stdout).toContain('REMOUNT-REFUSED');
  expect(stdout).toContain('HOST-WRITE-REFUSED');
  expect(stdout).toContain('shadow:0');
  expect(stdout).not.toContain('CONNECTED');
  expect(stdout.match(/REFUSED E/g)?.length).toBe(SOCKETS.length);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'aibuddy-confine-'));
  chmodSync(root, 0o777);
  for (const path of SOCKETS) {
    rmSync(path, { force: true });
    const server = createServer((socket) => {
      socket.on('error', () => {});
      socket.end('hello\n');
    });
    await new Promise<void>((done) => server.listen(path, done));
    chmodSync(path, 0o777);
    servers.push(server);
  }
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  servers = [];
  for (const path of SOCKETS) rmSync(path, { force: true });
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(bwrap.skip)('bubblewrap as the host user of this test (root in CI)', () => {
  it('controls: the host reaches every socket, and an unconfined command does too', async () => {
    for (const path of SOCKETS) expect(await connectFromHost(path)).toBe(true);
    const plain = await createNodeSandbox({ type: 'node', root, isolation: 'off', pidNamespace: false });
    const result = await plain.exec(PROBE, { timeoutMs: 60_000 });
    rmSync('/usr/aibuddy-probe', { force: true }); // unconfined root could write it: clean up
    expect(result.stdout.match(/CONNECTED/g)?.length).toBe(SOCKETS.length);
  });

  it('no capability, no remount, no host write, no secret, no host socket', async () => {
    const sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'required' });
    const result = await sandbox.exec(PROBE, { timeoutMs: 60_000 });
    expect(result.isolation).toBe('bubblewrap');
    expectConfined(result.stdout);
    expect(existsSync('/usr/aibuddy-probe')).toBe(false);
  });

  it("the home folder and the root's siblings are not visible; the workspace is writable", async () => {
    const sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'required' });
    const home = process.env.HOME ?? '/root';
    const result = await sandbox.exec(`ls -A ${home} | wc -l; ls /tmp | wc -l; echo ok > written.txt && cat written.txt`);
    expect(result.stdout).toBe(`0\n1\nok\n`);
  });
});

describe.skipIf(bwrap.skip)('bubblewrap as an unprivileged user (setpriv --reuid=65534)', () => {
  const setpriv = spawnSync('setpriv', ['--version']).status === 0;
  const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));

  it('setpriv and the built package are available (run `pnpm build` first)', () => {
    expect(setpriv).toBe(true);
    expect(existsSync(dist), `${dist} is missing: build @aibuddy/sandbox-node first`).toBe(true);
  });

  it('no capability, no remount, no host write, no secret, no host socket', () => {
    const script = join(root, 'probe-as-nobody.mjs');
    writeFileSync(
      script,
      `const { createNodeSandbox } = await import(${JSON.stringify(dist)});
const sandbox = await createNodeSandbox({ type: 'node', root: process.argv[2], isolation: 'required' });
const result = await sandbox.exec(process.argv[3], { timeoutMs: 60000 });
const id = await sandbox.exec('id -u');
console.log(JSON.stringify({ describe: sandbox.describe(), result, uid: id.stdout.trim() }));
`,
    );
    const ws = mkdtempSync(join(root, 'nobody-ws-'));
    chownSync(ws, 65534, 65534);
    const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, script, ws, PROBE], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' },
    });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as {
      describe: { mode: string };
      result: { stdout: string; isolation: string };
      uid: string;
    };
    expect(report.describe.mode).toBe('bubblewrap');
    expect(report.uid).toBe('65534');
    expectConfined(report.result.stdout);
    expect(readFileSync('/proc/self/status', 'utf8')).toMatch(/CapEff/); // host side unchanged
  });

  it('without bubblewrap, an unprivileged host still gets a PID namespace: a daemon dies with the call', () => {
    const script = join(root, 'pidns-as-nobody.mjs');
    const n = 880_000 + (process.pid % 10_000);
    writeFileSync(
      script,
      `const { createNodeSandbox } = await import(${JSON.stringify(dist)});
const sandbox = await createNodeSandbox({ type: 'node', root: process.argv[2], isolation: 'off' });
const result = await sandbox.exec('setsid -f sleep ${n}; echo $$; id -u');
console.log(JSON.stringify({ describe: sandbox.describe(), result }));
`,
    );
    const ws = mkdtempSync(join(root, 'nobody-pidns-'));
    chownSync(ws, 65534, 65534);
    const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, script, ws], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' },
    });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as {
      describe: { mode: string; killsTree: boolean };
      result: { stdout: string; isolation: string };
    };
    expect(report.describe).toMatchObject({ mode: 'pid-namespace', killsTree: true });
    expect(report.result.isolation).toBe('pid-namespace');
    // Its own namespace: PID 2, under the namespace's init (PID 1, see PID_NAMESPACE_INIT); still uid nobody.
    expect(report.result.stdout).toBe('2\n65534\n');
    const left = spawnSync('pgrep', ['-f', `^sleep ${n}$`], { encoding: 'utf8' }).stdout.trim();
    expect(left).toBe('');
  });
});
