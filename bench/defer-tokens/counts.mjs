// Token accounting of one request body: `wire` = every tool definition in it, `context` = what the model
// is given (definitions flagged defer_loading are not loaded until a search references them; OpenAI
// namespaces count their name + description), `offered` = definitions the model can call at once.
import { tokens } from './deps.mjs';

/** Counts of an Anthropic Messages body; `loaded` are the names a search loaded. */
export function anthropicCounts(body, loaded = []) {
  let wire = 0;
  let context = 0;
  const byName = new Map();
  for (const t of body.tools ?? []) {
    const n = tokens(t);
    wire += n;
    byName.set(t.name, n);
    if (t.defer_loading !== true) context += n;
  }
  for (const name of loaded) context += byName.get(name) ?? 0;
  return { wire, context, offered: (body.tools ?? []).filter((t) => t.defer_loading !== true).length };
}

/** Counts of an OpenAI Responses body; `loaded` are the names a search loaded. */
export function openaiCounts(body, loaded = []) {
  let wire = 0;
  let context = 0;
  let offered = 0;
  const byName = new Map();
  for (const t of body.tools ?? []) {
    wire += tokens(t);
    if (t.type === 'namespace') {
      context += tokens({ type: t.type, name: t.name, description: t.description });
      for (const f of t.tools) {
        byName.set(f.name, tokens(f));
        if (f.defer_loading !== true) {
          context += tokens(f);
          offered++;
        }
      }
    } else {
      byName.set(t.name, tokens(t));
      if (t.defer_loading !== true) {
        context += tokens(t);
        offered++;
      }
    }
  }
  for (const name of loaded) context += byName.get(name) ?? 0;
  return { wire, context, offered };
}
