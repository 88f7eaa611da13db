import { createHash } from 'node:crypto';

/** Ids used as file names unchanged on a case-sensitive file system. */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,120}$/;
/** Ids used unchanged on a case-insensitive one (macOS, Windows): no upper case, so no two fold together. */
const PLAIN_ID_FOLDED = /^[a-z0-9_-]{1,120}$/;
/** Longest encoded name before falling back to a hash (file names are limited to 255 bytes). */
const MAX_HEX_CHARS = 200;

/** Options of {@link safeName}. */
export interface SafeNameOptions {
  /** The file system folds case (`A.json` and `a.json` are one file): upper-case ids are encoded too. */
  caseInsensitive?: boolean;
}

/**
 * Maps any id (a tool call id, a task id) to one safe file or folder name, injectively:
 *
 * - ids of letters, digits, `_` and `-` (1–120 characters) stay as they are, so the usual provider
 *   ids give `<toolCallId>.json` literally (on a case-insensitive file system only lower-case ids do);
 * - anything else (dots, slashes, `../`, the empty id, spaces, unicode) becomes `~` plus the
 *   lower-case hex of its UTF-8 bytes — `~` never occurs in a plain id, so the two never collide;
 * - when that would exceed 200 characters, `~~` plus the SHA-256 of the id (the record stores the
 *   original id and reads check it).
 *
 * No result contains `/`, `\`, NUL or is `.`/`..`, so no id can escape its folder.
 */
export function safeName(id: string, options: SafeNameOptions = {}): string {
  if ((options.caseInsensitive ? PLAIN_ID_FOLDED : PLAIN_ID).test(id)) return id;
  const hex = Buffer.from(id, 'utf8').toString('hex');
  if (hex.length + 1 <= MAX_HEX_CHARS) return `~${hex}`;
  return `~~${createHash('sha256').update(id, 'utf8').digest('hex')}`;
}
