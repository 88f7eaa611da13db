#!/usr/bin/env node
// Index build of the tool_search engine at 10,000 tools, alone: N warm builds after one cold one, wall
// and CPU per build; with --reference, the engine of another commit alternates with this one build by
// build, so both see the same machine load. Three catalogues: the scale corpus of run.mjs (real tools,
// nearly all ASCII), and the same tool count written in other scripts (Cyrillic, Hangul, accented
// Latin; generated, seeded), whose text takes the fold-and-regex path; four tools with a
// description of a million characters each, mixing scripts in the ways that once cost one regex call
// per word; and 10,000 tools of one server whose names and required parameters are built so that every
// prerequisite lookup would scan half the server (prerequisites.ts bounds that work).
//
//   node bench/tool-search/build.mjs [--builds 15] [--reference GITREF] [--data DIR]...
//
// Wall and CPU time on a shared machine vary by 2× for the same code from one build to the next, so
// compare engines only side by side in one run, by the ratio of the minimums (the builds least
// disturbed by other processes) and of the medians.
import { alternatingBuilds, findData, loadEngine, loadSets, scaleCorpus } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (flag, fallback) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : fallback;
};
const builds = Number(opt('--builds', '15'));
const refName = opt('--reference', undefined);
const { catalog: scale } = scaleCorpus(loadSets(findData(args)));
const catalogues = [
  ['scale corpus', scale],
  ['other scripts', otherScripts(scale.length)],
  ['long mixed texts', longTexts()],
  ['hostile prerequisites', hostilePrerequisites(scale.length)],
];

/**
 * `size` tools of one server: names hold all words of one of two groups, and each tool requires 50
 * parameters that mix both groups, so no tool's name holds a parameter's words and each of the 3,800
 * distinct parameters would be checked against half the server (4.5 s per build before the work budget).
 */
function hostilePrerequisites(size) {
  const group = (g) => Array.from({ length: 20 }, (_, i) => `w${g}x${String.fromCharCode(97 + i)}`);
  const [a, b] = [group('a'), group('b')];
  const mixed = [];
  for (let i = 0; i < 20; i++)
    for (let j = i + 1; j < 20; j++) for (let k = 0; k < 20; k++) mixed.push(`${a[i]}_${a[j]}_${b[k]}`);
  return Array.from({ length: size }, (_, t) => {
    const required = Array.from({ length: 50 }, (_, r) => mixed[(t * 50 + r) % mixed.length]);
    const properties = Object.fromEntries(required.map((p) => [p, { type: 'string' }]));
    return {
      name: `${(t % 2 ? a : b).join('_')}_${t}`,
      server: 'hostile',
      description: 'x',
      inputSchema: { type: 'object', properties, required },
    };
  });
}

/** Four tools of ~1 M characters: ASCII and non-ASCII words alternating, ASCII with one "’", Hangul, camelCase with "é". */
function longTexts() {
  const texts = [
    'a é '.repeat(250_000),
    `${'word '.repeat(200_000)}it’s`,
    '날씨 예보 '.repeat(170_000),
    'getCaféHTTPResponse2 '.repeat(50_000),
  ];
  return texts.map((description, i) => ({ name: `long_${i}`, description }));
}

/** `size` tools whose names are ASCII and whose descriptions and parameters are in other scripts. */
function otherScripts(size) {
  const words = ['погода', 'прогноз', 'город', 'получить', '날씨', '예보', '도시', '목록', 'café', 'größe', 'Søk', 'données'];
  let seed = 3;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const text = (n) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(next() < 0.5 ? ' ' : ', ');
  return Array.from({ length: size }, (_, i) => ({
    name: `tool_${i}`,
    server: `server_${i % 400}`,
    description: text(25),
    inputSchema: { type: 'object', properties: { [`param_${i % 50}`]: { type: 'string', description: text(8) } } },
  }));
}
const engines = [['engine', await loadEngine()]];
if (refName) engines.push([`ref ${refName}`, await loadEngine(false, refName)]);

const f = (x) => x.toFixed(1);
for (const [label, catalog] of catalogues) {
  for (const [, engine] of engines) engine.createToolIndex(catalog); // cold: JIT warm-up, not counted
  const runs = alternatingBuilds(
    engines.map(([, engine]) => engine),
    catalog,
    builds,
  );
  console.log(`index build, ${label}: ${catalog.length} tools, ${builds} warm builds each (ms)`);
  const rows = runs.map((r, k) => ({ name: engines[k][0], ...r }));
  for (const r of rows) {
    if (r.size !== catalog.length) throw new Error(`${r.name}: index holds ${r.size} tools, expected ${catalog.length}`);
    console.log(
      `  ${r.name.padEnd(16)} wall min ${f(r.wall.min)} median ${f(r.wall.median)}   CPU min ${f(r.cpu.min)} median ${f(r.cpu.median)}`,
    );
  }
  if (rows.length === 2) {
    const [a, b] = rows;
    console.log(
      `  ratio engine / ref: wall min ${(a.wall.min / b.wall.min).toFixed(2)}× median ${(a.wall.median / b.wall.median).toFixed(2)}×   ` +
        `CPU min ${(a.cpu.min / b.cpu.min).toFixed(2)}× median ${(a.cpu.median / b.cpu.median).toFixed(2)}×`,
    );
  }
}
