import { createHash } from 'node:crypto';

/**
 * Serialises a JSON value with object keys sorted, so that two inputs that differ only in key
 * order get the same digest. Same canonical form as the AI SDK's approval signatures.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') {
    // `undefined` has no JSON form; it can only occur nested in hand-built input.
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/**
 * The digest a confirmation decision is bound to: SHA-256 of the canonical JSON of the call's
 * input, base64url without padding (the form the AI SDK signs with `experimental_toolApprovalSecret`).
 */
export function inputDigest(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('base64url');
}
