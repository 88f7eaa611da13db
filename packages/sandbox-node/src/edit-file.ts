import type { EditFileResult, EditSpec } from '@aibuddy/sandbox';
import {
  SandboxArgumentError,
  SandboxBinaryFileError,
  SandboxEditError,
  SandboxNotFoundError,
  SandboxTooLargeError,
} from '@aibuddy/sandbox';
import { BINARY_SNIFF_BYTES } from './read-file.js';

/** Files larger than this are not edited in memory. */
export const MAX_EDIT_BYTES = 16 * 1024 * 1024;

function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  let from = 0;
  for (;;) {
    const i = haystack.indexOf(needle, from);
    if (i === -1) return at;
    at.push(i);
    from = i + needle.length;
  }
}

/** 1-based line numbers of ascending indexes, in one pass over the text. */
function linesOf(text: string, indexes: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const index of indexes) {
    for (let nl = text.indexOf('\n', from); nl !== -1 && nl < index; nl = text.indexOf('\n', nl + 1)) {
      line++;
      from = nl + 1;
    }
    lines.push(line);
  }
  return lines;
}

/** Replaces at the given indexes by plain concatenation, so `$&`, `$1` and the like stay literal. */
function spliceAll(text: string, at: number[], oldLength: number, replacement: string): { text: string; starts: number[] } {
  let out = '';
  let last = 0;
  const starts: number[] = [];
  for (const i of at) {
    out += text.slice(last, i);
    starts.push(out.length);
    out += replacement;
    last = i + oldLength;
  }
  return { text: out + text.slice(last), starts };
}

/** Whether every `\n` of the text is preceded by `\r` (and there is at least one). */
function isAllCrlf(text: string): boolean {
  const lf = occurrences(text, '\n').length;
  return lf > 0 && occurrences(text, '\r\n').length === lf;
}

/**
 * Applies an edit to file bytes. The old text must occur exactly once unless `replaceAll`; zero
 * or several matches throw `SandboxEditError` saying how many and on which lines. In a file that
 * uses CRLF throughout, an old text written with `\n` still matches and the new text is written
 * with `\r\n`, so line endings are kept.
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
  if (bytes.length > MAX_EDIT_BYTES) {
    throw new SandboxTooLargeError(
      `editFile: "${rel}" is ${bytes.length} bytes, over the ${MAX_EDIT_BYTES}-byte edit limit.`,
      { path: rel },
    );
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    throw new SandboxBinaryFileError(`editFile: "${rel}" looks binary (it has NUL bytes); it cannot be edited as text.`, {
      path: rel,
    });
  }
  const original = bytes.toString('utf8');
  const crlf = isAllCrlf(original);
  let oldText = edit.oldText;
  let newText = edit.newText;
  if (crlf) {
    // Normalise what the model wrote to the file's convention.
    oldText = oldText.replace(/\r?\n/g, '\r\n');
    newText = newText.replace(/\r?\n/g, '\r\n');
  }
  const at = occurrences(original, oldText);
  if (at.length === 0) {
    throw new SandboxEditError(
      `editFile: the old text was not found in "${rel}" (0 matches). Read the file again and copy the text exactly, ` +
        'including whitespace and indentation.',
      { path: rel },
    );
  }
  if (at.length > 1 && !edit.replaceAll) {
    const lines = linesOf(original, at);
    const shown = lines.slice(0, 20).join(', ') + (lines.length > 20 ? ', ...' : '');
    throw new SandboxEditError(
      `editFile: the old text occurs ${at.length} times in "${rel}" (at lines ${shown}). ` +
        'Include more surrounding lines so it matches exactly once, or set replaceAll to replace every occurrence.',
      { path: rel },
    );
  }
  const { text, starts } = spliceAll(original, at, oldText.length, newText);
  const data = Buffer.from(text, 'utf8');
  return {
    data,
    result: { path: rel, replacements: at.length, lines: linesOf(text, starts), size: data.length },
  };
}

/** Thrown when editing a path that does not exist. */
export function editNotFound(rel: string): never {
  throw new SandboxNotFoundError(`editFile: "${rel}" does not exist; use writeFile to create it.`, { path: rel });
}
