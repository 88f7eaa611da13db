#!/usr/bin/env node
// Per-step overhead of the tool layer at 100, 1,000 and 10,000 deferred MCP tools.
//
//   pnpm build && node bench/scale/run.mjs [--json] [--sizes=100,1000,10000] [--servers=N] [--mcp-wait=MS]
//
// One host run per catalogue size, each in its own process (`node --expose-gc`): the reference host's
// composition (`composeAgent` from apps/agent) over real stdio MCP servers (`fixture-server.mjs`,
// 2 / 4 / 8 servers), every MCP tool deferred by the 10/30 gate, `activeTools` path (a replay model
// is no native provider). A replay model takes 10 steps: 5 × (tool_search, then call the tool found),
// then answers. Measured in the process, at the model boundary (a wrapper around the replay model):
//   gap(i)       = start of model call i+1 − end of model call i   (the SDK, runtime, compactor, defer,
//                  tool_search, the MCP call, prepareStep: everything between two model calls)
//   exec(i)      = the MCP call's own duration (runtime's `tool-finished.durationMs`; 0 for searches)
//   overhead(i)  = gap(i) − exec(i): the tool layer's cost of that step
//   CPU(i)       = CPU time of the process between the two calls (all threads: V8's helper threads
//                  mark the heap and compile in the background) and of the main thread alone (Linux)
// The first search builds the index (once per catalogue change); it is reported apart from the
// steady state (the median and max of the other 9 steps). Memory: V8 heap after a full GC, before
// composition and after the run, per 1,000 tools. Baseline: the 100-tool run of the same invocation.
// Composition waits for every server (so every step sees the whole catalogue) unless --mcp-wait=MS
// sets the host's `mcpStartWaitMs`: the steps then start while servers are still coming up.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fixtureTool } from '../../tooling/test-utils/tool-catalog.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? true];
  }),
);
const SERVICES = ['crm', 'billing', 'devops', 'support', 'analytics', 'storage', 'mail', 'calendar'];
const SERVERS_FOR = { 100: 2, 1000: 4, 10000: 8 };

if (args.child) await child(Number(args.size));
else parent();

function parent() {
  const dist = join(repoRoot, 'apps/agent/dist/index.js');
  if (!existsSync(dist)) {
    console.error(`missing ${dist}: run \`pnpm build\` first`);
    process.exit(1);
  }
  const sizes = String(args.sizes ?? '100,1000,10000')
    .split(',')
    .map(Number);
  const runs = Number(args.runs ?? 3);
  const results = [];
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const size of sizes) {
    // Several processes per size, interleaved with nothing else: the median of their medians is
    // what is compared (a shared machine adds noise to any single step).
    const each = [];
    for (let r = 0; r < runs; r++) {
      const childArgs = ['--expose-gc', fileURLToPath(import.meta.url), '--child', `--size=${size}`];
      if (args.servers) childArgs.push(`--servers=${Number(args.servers)}`);
      if (args['mcp-wait'] !== undefined) childArgs.push(`--mcp-wait=${Number(args['mcp-wait'])}`);
      if (args.notes) childArgs.push(`--notes=${Number(args.notes)}`);
      const out = execFileSync(process.execPath, childArgs, {
        cwd: repoRoot,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
      each.push(JSON.parse(out.trim().split('\n').at(-1)));
    }
    results.push({
      ...each[0],
      runs: each.length,
      startupMs: median(each.map((e) => e.startupMs)),
      allUpMs: median(each.map((e) => e.allUpMs)),
      firstSearchMs: median(each.map((e) => e.firstSearchMs)),
      medianMs: median(each.map((e) => e.medianMs)),
      cpuMedianMs: median(each.map((e) => e.cpuMedianMs)),
      searchCpuMedianMs: median(each.map((e) => e.searchCpuMedianMs)),
      callCpuMedianMs: median(each.map((e) => e.callCpuMedianMs)),
      mainMedianMs: median(each.map((e) => e.mainMedianMs)),
      searchMainMedianMs: median(each.map((e) => e.searchMainMedianMs)),
      callMainMedianMs: median(each.map((e) => e.callMainMedianMs)),
      searchWallMedianMs: median(each.map((e) => e.searchWallMedianMs)),
      callWallMedianMs: median(each.map((e) => e.callWallMedianMs)),
      maxMs: Math.max(...each.map((e) => e.maxMs)),
      heapDeltaBytes: median(each.map((e) => e.heapDeltaBytes)),
      engineQueryP50Ms: median(each.map((e) => e.engineQueryP50Ms)),
      callsOk: Math.min(...each.map((e) => e.callsOk)),
      systemCharsMax: Math.max(...each.map((e) => e.systemCharsMax)),
      notesInResultsChars: median(each.map((e) => e.notesInResultsChars)),
      perRun: each.map((e) => ({ medianMs: e.medianMs, overheads: e.overheads, cpu: e.cpu, failures: e.failures })),
    });
  }
  if (args.json) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  const base = results.find((r) => r.size === 100) ?? results[0];
  const ms = (v) => v.toFixed(2);
  const x = (v, b) => `${(v / b).toFixed(2)}×`;
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} on ${cpus().length} cores; ${base.runs} run(s) per size, medians of run medians; steps 1-9 (step 0 = first search, one-time warm-up)`,
  );
  console.log('');
  console.log(
    'deferred tools | servers | start-up ms | all servers up ms | step overhead, wall: all / search / call ms | × 100 (all) | step CPU (process): all / search / call ms | × 100 (all) | main-thread CPU: all / search / call ms | × 100 (all) | engine query p50 ms | first step ms | heap MB | heap MB / 1,000 tools | system prompt chars (largest step) | server notes in search results, chars | calls ok',
  );
  console.log('---:|---:|---:|---:|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:');
  for (const r of results) {
    console.log(
      [
        // Fewer deferred than served: some servers failed to start, or (--mcp-wait) were still starting
        // at the first step (shown, not hidden).
        r.deferred === r.size
          ? r.size.toLocaleString('en')
          : `${r.deferred.toLocaleString('en')} of ${r.size.toLocaleString('en')}${args['mcp-wait'] !== undefined ? ' at the first step' : ''}`,
        r.servers,
        ms(r.startupMs),
        ms(r.allUpMs),
        `${ms(r.medianMs)} / ${ms(r.searchWallMedianMs)} / ${ms(r.callWallMedianMs)}`,
        x(r.medianMs, base.medianMs),
        `${ms(r.cpuMedianMs)} / ${ms(r.searchCpuMedianMs)} / ${ms(r.callCpuMedianMs)}`,
        x(r.cpuMedianMs, base.cpuMedianMs),
        `${ms(r.mainMedianMs)} / ${ms(r.searchMainMedianMs)} / ${ms(r.callMainMedianMs)}`,
        x(r.mainMedianMs, base.mainMedianMs),
        ms(r.engineQueryP50Ms),
        ms(r.firstSearchMs),
        (r.heapDeltaBytes / 2 ** 20).toFixed(1),
        (r.heapDeltaBytes / 2 ** 20 / (r.size / 1000)).toFixed(2),
        r.systemCharsMax.toLocaleString('en'),
        r.notesInResultsChars.toLocaleString('en'),
        `${r.callsOk}/${r.calls}`,
      ].join(' | '),
    );
  }
  const big = results.find((r) => r.size === 10000);
  if (big && base) {
    for (const [what, key] of [
      ['wall', 'medianMs'],
      ['CPU', 'cpuMedianMs'],
      ['call-step CPU', 'callCpuMedianMs'],
      ['search-step CPU', 'searchCpuMedianMs'],
      ['main-thread CPU', 'mainMedianMs'],
    ]) {
      const ratio = big[key] / base[key];
      console.log(
        `target (${what}): 10,000 within 2× of 100 (${ratio.toFixed(2)}×) and under 5 ms (${big[key].toFixed(2)} ms): ${ratio <= 2 && big[key] < 5 ? 'met' : 'NOT met'}`,
      );
    }
  }
}

async function child(size) {
  const agent = await import(pathToFileURL(join(repoRoot, 'apps/agent/dist/index.js')).href);
  const req = createRequire(join(repoRoot, 'apps/agent/package.json'));
  const aiEntry = req.resolve('ai').replace(/index\.js$/, 'index.mjs');
  const { generateText, stepCountIs } = await import(pathToFileURL(existsSync(aiEntry) ? aiEntry : req.resolve('ai')).href);

  // --servers=N: the same tools spread over N servers (a host with hundreds of them starts N processes).
  const serverCount = args.servers ? Number(args.servers) : (SERVERS_FOR[size] ?? Math.max(1, Math.round(size / 1250)));
  const perServer = Math.floor(size / serverCount);
  const services = Array.from(
    { length: serverCount },
    (_, i) => `${SERVICES[i % SERVICES.length]}${i < SERVICES.length ? '' : i}`,
  );
  const mcpServers = Object.fromEntries(
    services.map((s) => [
      s,
      {
        command: process.execPath,
        args: [
          join(here, 'fixture-server.mjs'),
          `--tools=${perServer}`,
          `--service=${s}`,
          ...(args.notes ? [`--notes=${Number(args.notes)}`] : []),
        ],
      },
    ]),
  );

  // 5 targets spread over servers and catalogue depth; each is searched by words of its description.
  const script = { steps: [] };
  const targets = [];
  for (let j = 0; j < 5; j++) {
    const service = services[j % services.length];
    const k = Math.floor(((j + 1) * perServer) / 6);
    const t = fixtureTool(service, k);
    const [verb, ...rest] = t.description.replace(/\..*$/, '').split(' ');
    const [field, prop] = Object.entries(t.inputSchema.properties)[0];
    const value = prop.type === 'array' ? ['x'] : prop.type === 'integer' ? 1 : 'x';
    targets.push({ name: `${service}__${t.name}`, query: `${verb} ${rest.join(' ')}`, input: { [field]: value } });
  }
  targets.forEach((t, j) => {
    script.steps.push({ toolCalls: [{ toolName: 'tool_search', input: { query: t.query, limit: 5 }, id: `search-${j}` }] });
    script.steps.push({ toolCalls: [{ toolName: t.name, input: t.input, id: `call-${j}` }] });
  });
  script.steps.push({ text: 'done' });

  const { ReplayLanguageModel } = await import(pathToFileURL(join(repoRoot, 'packages/runtime/dist/index.js')).href);
  const replay = new ReplayLanguageModel(script, { modelId: 'scale' });
  // CPU time of the main thread alone (Linux: the kernel's per-thread run time, in ns): the work that
  // stands between a tool result and the next model call. Process CPU adds V8's helper threads
  // (concurrent marking of the heap, background JIT compilation), which grow with the heap.
  const mainThreadMs = () => {
    try {
      return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
      return Number.NaN;
    }
  };
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const calls = [];
  const systemChars = [];
  const model = {
    specificationVersion: 'v3',
    provider: 'replay',
    modelId: 'scale',
    supportedUrls: {},
    async doGenerate(options) {
      const c = { start: performance.now(), cpuStart: cpuMs(), mainStart: mainThreadMs(), end: 0, cpuEnd: 0, mainEnd: 0 };
      calls.push(c);
      // What the model is sent every step (the system prompt), apart from what it asked for (results).
      systemChars.push(options.prompt.filter((m) => m.role === 'system').reduce((n, m) => n + String(m.content).length, 0));
      const r = await replay.doGenerate(options);
      c.end = performance.now();
      c.cpuEnd = cpuMs();
      c.mainEnd = mainThreadMs();
      return r;
    },
    doStream: (options) => replay.doStream(options),
  };

  const work = mkdtempSync(join(tmpdir(), 'aibuddy-scale-'));
  const finished = new Map();
  const results = new Map();
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const composed = await agent.composeAgent({
    workspace: join(work, 'ws'),
    dataDir: join(work, 'data'),
    taskId: 'scale',
    model: { model, provider: 'replay', modelId: 'scale', baseUrl: undefined, demo: false, spec: 'replay:scale' },
    mcpConfig: { mcpServers },
    confirmation: { policy: 'auto-approve' },
    mcpStartWaitMs: args['mcp-wait'] !== undefined ? Number(args['mcp-wait']) : Number.POSITIVE_INFINITY,
    onEvent: (e) => {
      if (e.type === 'tool-finished') finished.set(e.toolCallId, e.durationMs);
      if (e.type === 'tool-result') results.set(e.toolCallId, e);
    },
  });
  const startupMs = performance.now() - t0;
  const deferred = composed.report.deferred.length;
  let allUpMs = 0;
  // --profile=FILE (diagnosis only): a CPU profile of the 10 steps, without the start-up.
  let session;
  if (args.profile) {
    const { Session } = await import('node:inspector/promises');
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  try {
    await generateText({
      model,
      system: composed.system,
      prompt: 'Do the five things.',
      ...composed.callSettings,
      stopWhen: stepCountIs(20),
      maxRetries: 0,
    });
  } finally {
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      (await import('node:fs')).writeFileSync(String(args.profile), JSON.stringify(profile));
    }
    // With --mcp-wait the run may end before the last server is up: when that was, then close.
    await composed.whenMcpStarted();
    allUpMs = performance.now() - t0;
    await composed.close();
  }
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  rmSync(work, { recursive: true, force: true });

  // The search engine alone (createToolIndex over the same catalogue, the same 5 queries): how much
  // of a search step is the engine's query time, which grows with the catalogue by design.
  const { createToolIndex } = await import(pathToFileURL(join(repoRoot, 'packages/discovery/dist/index.js')).href);
  const index = createToolIndex(
    services.flatMap((svc) =>
      Array.from({ length: perServer }, (_, k) => {
        const t = fixtureTool(svc, k);
        return { name: `${svc}__${t.name}`, description: t.description, inputSchema: t.inputSchema, server: svc };
      }),
    ),
  );
  const queryTimes = [];
  for (let rep = 0; rep < 20; rep++) {
    for (const t of targets) {
      const q0 = performance.now();
      index.search(t.query, { limit: 5 });
      queryTimes.push(performance.now() - q0);
    }
  }
  queryTimes.sort((a, b) => a - b);

  const overheads = [];
  const cpu = [];
  const main = [];
  for (let i = 0; i + 1 < calls.length; i++) {
    const step = script.steps[i];
    const id = step.toolCalls?.[0]?.id;
    const exec = id?.startsWith('call-') ? (finished.get(id) ?? 0) : 0;
    overheads.push(calls[i + 1].start - calls[i].end - exec);
    // CPU time of this process between the two model calls: the tool layer's own work (the MCP
    // server's work is another process), and far less disturbed by other load on a shared machine.
    cpu.push(calls[i + 1].cpuStart - calls[i].cpuEnd);
    main.push(calls[i + 1].mainStart - calls[i].mainEnd);
  }
  const steady = overheads.slice(1).sort((a, b) => a - b);
  const steadyCpu = cpu.slice(1).sort((a, b) => a - b);
  const pick = (xs, odd) => xs.filter((_, i) => i % 2 === (odd ? 1 : 0)).sort((a, b) => a - b);
  const med = (xs) => xs[Math.floor(xs.length / 2)];
  const callIds = targets.map((_, j) => `call-${j}`);
  console.log(
    JSON.stringify({
      size,
      deferred,
      servers: serverCount,
      modelCalls: calls.length,
      startupMs,
      allUpMs,
      firstSearchMs: overheads[0],
      overheads,
      cpu,
      medianMs: steady[Math.floor(steady.length / 2)],
      cpuMedianMs: steadyCpu[Math.floor(steadyCpu.length / 2)],
      // Search steps (even) and call steps (odd), steps 1-9.
      searchCpuMedianMs: med(pick(cpu.slice(1), true)),
      callCpuMedianMs: med(pick(cpu.slice(1), false)),
      mainMedianMs: med([...main.slice(1)].sort((a, b) => a - b)),
      searchMainMedianMs: med(pick(main.slice(1), true)),
      callMainMedianMs: med(pick(main.slice(1), false)),
      searchWallMedianMs: med(pick(overheads.slice(1), true)),
      callWallMedianMs: med(pick(overheads.slice(1), false)),
      maxMs: steady.at(-1),
      heapDeltaBytes: heapAfter - heapBefore,
      engineQueryP50Ms: queryTimes[Math.floor(queryTimes.length / 2)],
      calls: callIds.length,
      systemCharsMax: Math.max(...systemChars),
      // Usage notes that came with search results instead (--notes; activeTools path).
      notesInResultsChars: targets
        .flatMap((_, j) => results.get(`search-${j}`)?.model?.value?.notes ?? [])
        .reduce((n, note) => n + note.text.length, 0),
      callsOk: callIds.filter((id) => results.get(id) && !results.get(id).error).length,
      failures: callIds
        .filter((id) => !results.get(id) || results.get(id).error)
        .map((id) => results.get(id)?.error?.message ?? `${id}: no result`),
    }),
  );
}
