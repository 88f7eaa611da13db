import { createHash } from 'node:crypto';

/** Ids that are used as file names unchanged: short, lower-case-free of ambiguity, no dots. */
const PLAIN_ID = /^[a-z0-9_-]{1,120}$/;
/** Longest encoded name before falling back to a hash (file names are limited to 255 bytes). */
const MAX_HEX_CHARS = 200;

/**
 * Maps any id (a tool call id, a task id) to one safe file or folder name, injectively:
 *
 * - ids of lower-case letters, digits, `_` and `-` (1–120 characters) stay as they are;
 * - anything else (upper case, dots, slashes, `../`, the empty id, unicode) becomes `~` plus the
 *   lower-case hex of its UTF-8 bytes — `~` never occurs in a plain id, so the two never collide,
 *   and lower-case hex keeps names distinct on case-insensitive file systems;
 * - when that would exceed 200 characters, `~~` plus the SHA-256 of the id (the record stores the
 *   original id and reads check it).
 *
 * No result contains `/`, `\`, NUL or is `.`/`..`, so no id can escape its folder.
 */
export function safeName(id: string): string {
  if (PLAIN_ID.test(id)) return id;
  const hex = Buffer.from(id, 'utf8').toString('hex');
  if (hex.length + 1 <= MAX_HEX_CHARS) return `~${hex}`;
  return `~~${createHash('sha256').update(id, 'utf8').digest('hex')}`;
}
