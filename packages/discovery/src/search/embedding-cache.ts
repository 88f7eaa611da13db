import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** Version of the cache file format; a file with another version is ignored (and rewritten). */
const CACHE_VERSION = 1;
// A host with hundreds of servers changes descriptions over time: keep the newest vectors, bounded.
const MAX_CACHED_VECTORS = 50_000;

const cacheFileSchema = z.object({
  version: z.literal(CACHE_VERSION),
  provider: z.string(),
  modelId: z.string(),
  /** Text hash → base64 of the Float32 vector. */
  vectors: z.record(z.string(), z.string()),
});

/** sha256 of the text a tool is embedded from: its vector is reused while the text is unchanged. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Where the vectors of one model are cached: `<cacheDir>/tool-embeddings/<provider>--<model>.json`. */
export function cacheFile(cacheDir: string, provider: string, modelId: string): string {
  const safe = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || '_';
  return join(cacheDir, 'tool-embeddings', `${safe(provider)}--${safe(modelId)}.json`);
}

/**
 * Reads cached vectors. A missing file is an empty cache; an unreadable, malformed or other-model file
 * is reported through `onProblem` and treated as empty (it is rewritten on the next save).
 */
export async function loadVectors(
  file: string,
  provider: string,
  modelId: string,
  onProblem: (message: string, cause?: unknown) => void,
): Promise<Map<string, Float32Array>> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      onProblem(`could not read the embedding cache ${file}; tool vectors are recomputed`, error);
    return new Map();
  }
  let parsed: z.infer<typeof cacheFileSchema>;
  try {
    parsed = cacheFileSchema.parse(JSON.parse(raw));
  } catch (error) {
    onProblem(
      `the embedding cache ${file} is not valid (${(error as Error).message.slice(0, 200)}); it is ignored and rewritten`,
      error,
    );
    return new Map();
  }
  if (parsed.provider !== provider || parsed.modelId !== modelId) return new Map();
  const out = new Map<string, Float32Array>();
  for (const [hash, b64] of Object.entries(parsed.vectors)) {
    const bytes = Buffer.from(b64, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) continue;
    out.set(hash, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
  }
  return out;
}

/**
 * Writes the vectors atomically (temp file + rename: a reader never sees half a file). `fresh` (the
 * current catalogue) is kept in full; older entries from `previous` fill up to the bound.
 */
export async function saveVectors(
  file: string,
  provider: string,
  modelId: string,
  fresh: ReadonlyMap<string, Float32Array>,
  previous: ReadonlyMap<string, Float32Array>,
): Promise<void> {
  const vectors: Record<string, string> = {};
  let count = 0;
  const put = (hash: string, v: Float32Array): void => {
    if (hash in vectors || count >= MAX_CACHED_VECTORS) return;
    vectors[hash] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    count++;
  };
  for (const [h, v] of fresh) put(h, v);
  for (const [h, v] of previous) put(h, v);
  const dir = join(file, '..');
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify({ version: CACHE_VERSION, provider, modelId, vectors }));
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
