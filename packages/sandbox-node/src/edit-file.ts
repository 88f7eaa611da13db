import type { FileHandle } from 'node:fs/promises';
import type { EditFileResult, EditSpec } from '@aibuddy/sandbox';
import {
  occurrences,
  SandboxArgumentError,
  SandboxBinaryFileError,
  SandboxEditError,
  SandboxNotFoundError,
  SandboxTooLargeError,
} from '@aibuddy/sandbox';
import { encodingName, guessEncoding, nulBytesReason } from './encoding.js';
import { BINARY_SNIFF_BYTES } from './read-file.js';

/** Files larger than this are not edited in memory. */
export const MAX_EDIT_BYTES = 16 * 1024 * 1024;

const NL = 0x0a;
const CRLF = Buffer.from('\r\n');

function count(haystack: Buffer, byte: number): number {
  let n = 0;
  for (let i = haystack.indexOf(byte); i !== -1; i = haystack.indexOf(byte, i + 1)) n++;
  return n;
}

/** 1-based line numbers of ascending byte indexes, in one pass over the bytes. */
function linesOf(bytes: Buffer, indexes: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const index of indexes) {
    for (let nl = bytes.indexOf(NL, from); nl !== -1 && nl < index; nl = bytes.indexOf(NL, nl + 1)) {
      line++;
      from = nl + 1;
    }
    lines.push(line);
  }
  return lines;
}

/** Replaces at the given byte indexes; every byte outside the replaced ranges is kept as it was. */
function spliceAll(bytes: Buffer, at: number[], oldLength: number, replacement: Buffer): { data: Buffer; starts: number[] } {
  const parts: Buffer[] = [];
  const starts: number[] = [];
  let last = 0;
  let length = 0;
  for (const i of at) {
    parts.push(bytes.subarray(last, i));
    length += i - last;
    starts.push(length);
    parts.push(replacement);
    length += replacement.length;
    last = i + oldLength;
  }
  parts.push(bytes.subarray(last));
  return { data: Buffer.concat(parts), starts };
}

/** Whether every `\n` is preceded by `\r` (and there is at least one). */
function isAllCrlf(bytes: Buffer): boolean {
  const lf = count(bytes, NL);
  return lf > 0 && occurrences(bytes, CRLF).length === lf;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Applies an edit to file bytes, as bytes: the old text's UTF-8 bytes are located in the file and
 * only those ranges are replaced, so every other byte (invalid sequences, a BOM, mixed line
 * endings) is kept exactly. The old text must occur exactly once unless `replaceAll`; zero or
 * several matches throw `SandboxEditError` saying how many and on which lines. In a file that uses
 * CRLF throughout, an old text written with `\n` still matches and the new text is written with
 * `\r\n`.
 *
 * A file that is not valid UTF-8 (GBK, Latin-1, ...) is edited only when the old and the new text
 * are plain ASCII: those bytes mean the same in every such encoding, so the edit is still exact.
 * Anything else would mix encodings in one file, so it is refused (`SandboxArgumentError`) naming
 * the encoding guessed, and the file is left untouched.
 */
export function applyEdit(rel: string, bytes: Buffer, edit: EditSpec): { data: Buffer; result: Omit<EditFileResult, 'mtimeMs'> } {
  if (typeof edit?.oldText !== 'string' || typeof edit.newText !== 'string') {
    throw new SandboxArgumentError('editFile: oldText and newText must be strings.', { path: rel });
  }
  if (edit.oldText === '') {
    throw new SandboxArgumentError(
      `editFile: oldText is empty; give the exact text to replace in "${rel}" (use writeFile to create or overwrite a file).`,
      { path: rel },
    );
  }
  if (bytes.length > MAX_EDIT_BYTES) throw tooLarge(rel, bytes.length);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    throw new SandboxBinaryFileError(nulBytesReason('editFile', rel, bytes), { path: rel });
  }
  const encoding = guessEncoding(bytes);
  if (encoding !== 'utf-8' && (NON_ASCII.test(edit.oldText) || NON_ASCII.test(edit.newText))) {
    throw new SandboxArgumentError(
      `editFile: "${rel}" is not UTF-8 text (${encodingName(encoding)}), and this edit has non-ASCII characters in its ` +
        `${NON_ASCII.test(edit.oldText) ? 'old' : 'new'} text, which cannot be matched or written byte-exactly in that encoding; ` +
        'the file was left untouched. Edit only ASCII text in it, or convert it to UTF-8 first (for example with iconv) and then edit.',
      { path: rel },
    );
  }
  const crlf = isAllCrlf(bytes);
  let oldText = edit.oldText;
  let newText = edit.newText;
  if (crlf) {
    // Normalize what the model wrote to the file's convention.
    oldText = oldText.replace(/\r?\n/g, '\r\n');
    newText = newText.replace(/\r?\n/g, '\r\n');
  }
  const oldBytes = Buffer.from(oldText, 'utf8');
  const at = occurrences(bytes, oldBytes);
  if (at.length === 0) {
    throw new SandboxEditError(
      `editFile: the old text was not found in "${rel}" (0 matches). Read the file again and copy the text exactly, ` +
        'including whitespace and indentation.' +
        (encoding === 'utf-8'
          ? ''
          : ` (The file is not UTF-8 but ${encodingName(encoding)}; only its ASCII text can be matched.)`),
      { path: rel },
    );
  }
  if (at.length > 1 && !edit.replaceAll) {
    const lines = linesOf(bytes, at);
    const shown = lines.slice(0, 20).join(', ') + (lines.length > 20 ? ', ...' : '');
    throw new SandboxEditError(
      `editFile: the old text occurs ${at.length} times in "${rel}" (at lines ${shown}). ` +
        'Include more surrounding lines so it matches exactly once, or set replaceAll to replace every occurrence.',
      { path: rel },
    );
  }
  const { data, starts } = spliceAll(bytes, at, oldBytes.length, Buffer.from(newText, 'utf8'));
  return {
    data,
    result: { path: rel, replacements: at.length, lines: linesOf(data, starts), size: data.length },
  };
}

/** The error for a file over the edit limit, before or after reading it. */
export function tooLarge(rel: string, size: number): Error {
  return new SandboxTooLargeError(
    `editFile: "${rel}" is ${size} bytes, over the ${MAX_EDIT_BYTES}-byte (16 MiB) edit limit; nothing was read or changed. ` +
      'Edit it with a command through exec (for example sed or a script) instead.',
    { path: rel },
  );
}

/** Thrown when editing a path that does not exist. */
export function editNotFound(rel: string): never {
  throw new SandboxNotFoundError(`editFile: "${rel}" does not exist; use writeFile to create it.`, { path: rel });
}

/**
 * Reads a file for editing, checking the size first: the size from `fstat` is compared with the
 * limit before any byte is read, and the read stops at limit + 1 bytes, so a file that is (or
 * grows) over the limit costs no more memory than the limit.
 */
export async function readForEdit(handle: FileHandle, size: number, rel: string): Promise<Buffer> {
  if (size > MAX_EDIT_BYTES) throw tooLarge(rel, size);
  const buffer = Buffer.allocUnsafe(Math.min(MAX_EDIT_BYTES + 1, size + 1));
  let filled = 0;
  for (;;) {
    const room = buffer.length - filled;
    if (room === 0) break;
    const { bytesRead } = await handle.read(buffer, filled, room, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  if (filled > MAX_EDIT_BYTES) throw tooLarge(rel, filled);
  if (filled > size) {
    throw new SandboxEditError(
      `editFile: "${rel}" grew while it was being read; nothing was changed. Try again when it is no longer being written.`,
      {
        path: rel,
      },
    );
  }
  return buffer.subarray(0, filled);
}
