/**
 * Reads a server's whole tool list: every page of `tools/list`, tolerating malformed entries
 * (they are sorted out later by `readToolList`) and a server that repeats a cursor.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';

// The SDK's own schema rejects the whole page when one tool is malformed; we keep the good ones.
const LaxListToolsResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const MAX_PAGES = 1_000;

/**
 * Most tools read from one server. Real servers list tens to a few thousand; past this a list is
 * broken or hostile, and every tool costs memory and index time in the host.
 */
export const MAX_MCP_TOOLS_PER_SERVER = 10_000;

/**
 * Most text of one server's tool list, summed over its pages (each page is already at most a
 * message, 10 MiB): 1,000 pages of 10 MiB would otherwise all be held until the list is read.
 */
export const MAX_MCP_TOOL_LIST_CHARS = 64 * 1024 * 1024;

/**
 * The raw tool entries of every page, at most {@link MAX_MCP_TOOLS_PER_SERVER} tools and
 * {@link MAX_MCP_TOOL_LIST_CHARS} characters; `warn` hears of a repeated cursor or a list over a
 * limit (paging then stops).
 */
export async function listAllTools(client: Client, timeoutMs: number, warn: (message: string) => void): Promise<unknown[]> {
  const raw: unknown[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let chars = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      LaxListToolsResult,
      { timeout: timeoutMs },
    );
    chars += JSON.stringify(result.tools).length;
    if (chars > MAX_MCP_TOOL_LIST_CHARS) {
      warn(
        `the server's tool list passes ${MAX_MCP_TOOL_LIST_CHARS} characters; the tools of its first ${page} page(s) are kept and paging stopped.`,
      );
      return raw;
    }
    for (const tool of result.tools) {
      if (raw.length === MAX_MCP_TOOLS_PER_SERVER) {
        warn(
          `the server lists more than ${MAX_MCP_TOOLS_PER_SERVER} tools; the first ${MAX_MCP_TOOLS_PER_SERVER} are kept and paging stopped.`,
        );
        return raw;
      }
      raw.push(tool);
    }
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') break;
    if (seenCursors.has(cursor)) {
      warn(`tools/list returned the cursor "${cursor}" twice; stopped paging.`);
      break;
    }
    seenCursors.add(cursor);
  }
  return raw;
}
