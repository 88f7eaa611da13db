// Loads what the defer-tokens benchmark measures with: the AI SDK and providers through packages/defer's
// own dependencies (the same instances its dist uses), the built defer and discovery packages, their
// loopback wire servers, and one tiktoken encoder. Run `pnpm --filter @aibuddy/defer... build` first.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../..');

const deferPkg = join(repoRoot, 'packages/defer');
const req = createRequire(join(deferPkg, 'package.json'));
/** Imports a dependency of packages/defer through its ESM entry (the same instance defer's dist uses). */
async function importDep(name) {
  let dir = dirname(req.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name)
    dir = dirname(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entry = pkg.exports?.['.']?.import ?? pkg.module ?? pkg.main;
  return import(pathToFileURL(join(dir, typeof entry === 'string' ? entry : entry.default)).href);
}
const need = (path) => {
  if (!existsSync(path)) {
    console.error(`missing ${path}: run \`pnpm --filter @aibuddy/defer... build\` first`);
    process.exit(1);
  }
  return pathToFileURL(path).href;
};

export const { generateText, stepCountIs, tool, jsonSchema } = await importDep('ai');
export const { createAnthropic } = await importDep('@ai-sdk/anthropic');
export const { createOpenAI } = await importDep('@ai-sdk/openai');
const { get_encoding } = req('tiktoken');
export const defer = await import(need(join(deferPkg, 'dist/index.js')));
export const { startAnthropicWireServer, toolSearchResultBlock } = await import(
  need(join(deferPkg, 'dist/testing/anthropic-wire-server.js'))
);
export const { startOpenAIWireServer, functionCallItem, messageItem, toolSearchCallItem, toolSearchOutputItem } = await import(
  need(join(deferPkg, 'dist/testing/openai-wire-server.js'))
);
export const discovery = await import(need(join(repoRoot, 'packages/discovery/dist/index.js')));
export const runtime = await import(need(join(repoRoot, 'packages/runtime/dist/index.js')));

export const enc = get_encoding('o200k_base');
/** Tokens of a value's JSON, exactly as it stands in a request body. */
export const tokens = (value) => enc.encode(JSON.stringify(value)).length;
