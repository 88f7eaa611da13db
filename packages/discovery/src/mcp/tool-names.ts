import { createHash } from 'node:crypto';

/** The separator between server and tool in a namespaced name. */
export const MCP_NAME_SEPARATOR = '__';
const MAX_LENGTH = 64;
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The name the model sees for an MCP tool: `server__tool`. Characters outside `[a-zA-Z0-9_-]`
 * become `_`; when anything had to change, or the result is longer than 64 characters, the name
 * is cut and ends in `_` plus 8 hex digits of a hash of the original pair, so it stays unique and
 * the same across runs. The original MCP name is what is sent in `tools/call`.
 */
export function namespaceToolName(server: string, tool: string): string {
  const joined = `${server}${MCP_NAME_SEPARATOR}${tool}`;
  if (VALID.test(joined)) return joined;
  const sanitized = joined.replace(/[^a-zA-Z0-9_-]/g, '_');
  const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
  return sanitized.slice(0, MAX_LENGTH - suffix.length) + suffix;
}

/**
 * A name for an MCP tool whose namespaced name clashes with another server's (`a` + `b__c` and
 * `a__b` + `c` both give `a__b__c`): the clashing name cut to leave room, `_`, and 8 hex digits of a
 * hash of the (server, tool) pair. Deterministic, and different for each pair.
 */
export function uniqueToolName(server: string, tool: string, clashing: string): string {
  const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
  return clashing.replace(/_[0-9a-f]{8}$/, '').slice(0, MAX_LENGTH - suffix.length) + suffix;
}
