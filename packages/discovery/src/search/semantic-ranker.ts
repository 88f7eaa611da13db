import type { EmbeddingModel } from 'ai';
import { cacheFile, loadVectors, saveVectors, textHash } from './embedding-cache.js';
import { schemaText } from './schema-text.js';
import type { ToolIndexEntry, ToolSearchWarning } from './types.js';

// What a tool is embedded from: enough for any real description; embedding APIs bill by token.
const MAX_TOOL_TEXT = 2000;
// Embedding a query is one short request; a stalled endpoint must not stall tool_search.
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/** The text a tool is embedded from (name, server, description, parameter names). */
export function toolText(e: ToolIndexEntry): string {
  const params = schemaText(e.inputSchema).names.join(', ');
  const text = [e.name, e.server ? `server: ${e.server}` : '', e.description ?? '', params ? `parameters: ${params}` : '']
    .filter((s) => s.length > 0)
    .join('\n');
  return text.slice(0, MAX_TOOL_TEXT);
}

/** Options of {@link createSemanticRanker}. */
export interface SemanticRankerOptions {
  model: Exclude<EmbeddingModel, string>;
  entries: readonly ToolIndexEntry[];
  cacheDir?: string | undefined;
  onWarning: (warning: ToolSearchWarning) => void;
  queryTimeoutMs: number;
  /** Vectors already computed (by the index this one is derived from), by text hash: not embedded again. */
  seed?: ReadonlyMap<string, Float32Array> | undefined;
}

/** Cosine ranking of tools against a query embedding; tool vectors are computed (or loaded) once. */
export interface SemanticRanker {
  /** Resolves true when the tool vectors are ready, false when they could not be computed (warned). Never rejects. */
  ready(): Promise<boolean>;
  /** Tool positions by cosine similarity to `query`, best first; rejects when the query cannot be embedded. */
  rank(query: string, limit: number): Promise<number[]>;
  /** The tool vectors by text hash, once ready (a derived index starts from them). */
  vectors(): ReadonlyMap<string, Float32Array> | undefined;
  /** The options this ranker was made with. */
  options: SemanticRankerOptions;
}

type EmbedModule = typeof import('ai');

function unitVector(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += (out[i] as number) * (out[i] as number);
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

export function createSemanticRanker(o: SemanticRankerOptions): SemanticRanker {
  const { model, entries } = o;
  if (typeof model !== 'object' || model === null || typeof (model as { doEmbed?: unknown }).doEmbed !== 'function') {
    throw new TypeError(
      'createToolIndex: embeddingModel must be an AI SDK embedding model object, e.g. openai.embedding("text-embedding-3-small").',
    );
  }
  let ai: Promise<EmbedModule> | undefined;
  const load = (): Promise<EmbedModule> => (ai ??= import('ai'));
  let matrix: Float32Array | undefined;
  let dims = 0;
  let known: Map<string, Float32Array> | undefined;

  async function build(): Promise<boolean> {
    const texts = entries.map(toolText);
    const hashes = texts.map(textHash);
    const file = o.cacheDir ? cacheFile(o.cacheDir, model.provider, model.modelId) : undefined;
    const cacheProblem = (message: string, cause?: unknown): void => o.onWarning({ kind: 'embedding-cache', message, cause });
    const cached = file ? await loadVectors(file, model.provider, model.modelId, cacheProblem) : new Map<string, Float32Array>();
    for (const [h, v] of o.seed ?? []) if (!cached.has(h)) cached.set(h, v);
    const missing = [...new Set(hashes.filter((h) => !cached.has(h)))];
    const fresh = new Map<string, Float32Array>();
    for (const h of hashes) {
      const v = cached.get(h);
      if (v) fresh.set(h, v);
    }
    if (missing.length > 0) {
      const textOf = new Map(hashes.map((h, i) => [h, texts[i] as string]));
      try {
        const { embedMany } = await load();
        const { embeddings } = await embedMany({ model, values: missing.map((h) => textOf.get(h) as string) });
        missing.forEach((h, i) => fresh.set(h, unitVector(embeddings[i] ?? [])));
      } catch (cause) {
        o.onWarning({
          kind: 'tool-embeddings',
          message: `could not embed ${missing.length} tool descriptions with ${model.provider}/${model.modelId} (${(cause as Error)?.message ?? String(cause)}); tool_search stays lexical`,
          cause,
        });
        return false;
      }
      if (file) {
        try {
          await saveVectors(file, model.provider, model.modelId, fresh, cached);
        } catch (cause) {
          cacheProblem(
            `could not write the embedding cache ${file} (${(cause as Error).message}); vectors will be recomputed next time`,
            cause,
          );
        }
      }
    }
    dims = fresh.get(hashes[0] as string)?.length ?? 0;
    const m = new Float32Array(entries.length * dims);
    for (let d = 0; d < entries.length; d++) {
      const v = fresh.get(hashes[d] as string) as Float32Array;
      if (v.length !== dims) {
        o.onWarning({
          kind: 'tool-embeddings',
          message: `the embedding model returned vectors of different lengths (${v.length} and ${dims}); tool_search stays lexical`,
        });
        return false;
      }
      m.set(v, d * dims);
    }
    matrix = m;
    known = fresh;
    return true;
  }

  let building: Promise<boolean> | undefined;
  const ready = (): Promise<boolean> =>
    (building ??=
      entries.length === 0
        ? Promise.resolve(false)
        : build().catch((cause) => {
            o.onWarning({
              kind: 'tool-embeddings',
              message: `tool embeddings failed: ${(cause as Error)?.message ?? String(cause)}; tool_search stays lexical`,
              cause,
            });
            return false;
          }));

  async function rank(query: string, limit: number): Promise<number[]> {
    if (!(await ready()) || !matrix) return [];
    const { embed } = await load();
    const { embedding } = await embed({ model, value: query, maxRetries: 0, abortSignal: AbortSignal.timeout(o.queryTimeoutMs) });
    if (embedding.length !== dims)
      throw new Error(`the query vector has ${embedding.length} dimensions, the tool vectors ${dims}`);
    const q = unitVector(embedding);
    // Cosine = dot product of unit vectors; keep the best `limit` by insertion (limit ≪ tools).
    const topDoc: number[] = [];
    const topSim: number[] = [];
    for (let d = 0; d < entries.length; d++) {
      let s = 0;
      const base = d * dims;
      for (let i = 0; i < dims; i++) s += (q[i] as number) * (matrix[base + i] as number);
      if (topDoc.length === limit && s <= (topSim[limit - 1] as number)) continue;
      let j = topDoc.length < limit ? topDoc.length : limit - 1;
      while (j > 0 && (topSim[j - 1] as number) < s) {
        topSim[j] = topSim[j - 1] as number;
        topDoc[j] = topDoc[j - 1] as number;
        j--;
      }
      topSim[j] = s;
      topDoc[j] = d;
    }
    return topDoc;
  }

  return { ready, rank, vectors: () => known, options: o };
}
