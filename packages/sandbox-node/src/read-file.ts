import type { ReadFileOptions, ReadFileResult } from '@aibuddy/sandbox';
import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { SandboxAbortedError, SandboxArgumentError, SandboxBinaryFileError, SandboxTooLargeError } from '@aibuddy/sandbox';
import { decodeText, guessEncoding, nulBytesReason } from './encoding.js';

/** Default number of lines in a window. */
export const DEFAULT_READ_LIMIT = 2000;
/** Lines longer than this many characters are cut with a marker. */
export const MAX_LINE_CHARS = 2000;

/** How many code units of `text` fit in `max` without splitting a surrogate pair (half of one is not text). */
export function lineCutAt(text: string, max: number): number {
  let cut = Math.min(max, text.length);
  const code = text.charCodeAt(cut - 1);
  if (cut < text.length && code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}
/** Bytes sniffed for a NUL byte to call a file binary. */
export const BINARY_SNIFF_BYTES = 8192;

const CHUNK_BYTES = 256 * 1024;
// Enough bytes for MAX_LINE_CHARS characters of any width; the rest of a long line is only counted.
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4 + 4;
const NL = 0x0a;
const CR = 0x0d;

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new SandboxArgumentError(`readFile: ${name} must be a whole number of at least 1 (got ${String(value)}).`);
  }
  return value;
}

/** Validates offset and limit up front, so bad input fails before the file is opened. */
export function readWindowOptions(options: ReadFileOptions | undefined): { offset: number; limit: number } {
  return {
    offset: positiveInt(options?.offset, 1, 'offset'),
    limit: positiveInt(options?.limit, DEFAULT_READ_LIMIT, 'limit'),
  };
}

/** Default time bound of one read: past it the read returns what it has, saying so. */
export const DEFAULT_READ_TIMEOUT_MS = 20_000;
/** A chunk of this many NUL bytes in a row ends a read: a sparse hole or binary data, never text. */
const NUL_RUN_BYTES = 64 * 1024;
const ZEROS = Buffer.alloc(CHUNK_BYTES);

/** The longest prefix of a cut line that ends on a whole UTF-8 character (so a cut never looks invalid). */
function wholeCharacters(bytes: Buffer): Buffer {
  let i = bytes.length;
  let back = 0;
  while (i > 0 && back < 3 && (bytes[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes;
  const lead = bytes[i - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > back + 1 ? bytes.subarray(0, i - 1) : bytes;
}

interface RawLine {
  bytes: Buffer;
  /** The line's full length in bytes (more than `bytes.length` when it was cut). */
  total: number;
  lineNo: number;
}

/** Limits of one read. */
export interface ReadLimits {
  /** Time bound (ms). */
  timeMs: number;
}

/**
 * Reads a window of lines by streaming fixed-size chunks: lines before the window are only
 * counted, lines in it are kept (each cut to MAX_LINE_BYTES), and reading stops as soon as the
 * window is full and one more byte proves the file goes on. Memory is bounded by the window, not
 * by the file. The read also stops — returning the lines it has, with `stopped` saying why — at
 * the size the file had when it was opened (a file that keeps growing cannot keep it going), at
 * the time bound (checked per chunk: the event loop is never blocked), and at a chunk of NUL
 * bytes (a sparse file's hole is not scanned for gigabytes). The bytes are decoded after the
 * window is known, as UTF-8 or, when they are not UTF-8, in the guessed encoding (`encoding`).
 * It reads only from `handle`, an already opened regular file (`stat` is its `fstat`), so what
 * was checked is what is read; the caller closes the handle. The signal is checked before every chunk.
 */
export async function readFileWindow(
  handle: FileHandle,
  stat: Stats,
  rel: string,
  options: ReadFileOptions | undefined,
  limits: ReadLimits = { timeMs: DEFAULT_READ_TIMEOUT_MS },
): Promise<ReadFileResult> {
  const { offset, limit } = readWindowOptions(options);
  const maxBytes = options?.maxBytes;
  if (maxBytes !== undefined && !(typeof maxBytes === 'number' && maxBytes >= 0)) {
    throw new SandboxArgumentError(`readFile: maxBytes must be a non-negative number (got ${String(maxBytes)}).`);
  }
  const signal = options?.signal;
  const target = { rel };
  {
    if (maxBytes !== undefined && stat.size > maxBytes) {
      throw new SandboxTooLargeError(
        `readFile: "${target.rel}" is ${stat.size} bytes, over the ${maxBytes}-byte limit of this operation; nothing was read.`,
        { path: target.rel },
      );
    }
    const deadline = Date.now() + limits.timeMs;
    const sizeAtOpen = stat.size;
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    const lastLine = offset + limit - 1;
    const raw: RawLine[] = [];
    let lineNo = 1;
    let parts: Buffer[] = [];
    let partBytes = 0;
    let lineBytes = 0;
    let lineEnding: '\n' | '\r\n' | undefined;
    let prevByte = -1;
    let position = 0;
    let endedWithNewline = true;
    let truncated = false;
    let scannedAll = false;
    let stopped: string | undefined;

    const finishLine = () => {
      let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, partBytes);
      let total = lineBytes;
      if (bytes.length > 0 && bytes[bytes.length - 1] === CR && bytes.length === total) {
        bytes = bytes.subarray(0, bytes.length - 1);
        total -= 1;
      }
      raw.push({ bytes: total > bytes.length ? wholeCharacters(bytes) : bytes, total, lineNo });
      parts = [];
      partBytes = 0;
      lineBytes = 0;
    };

    outer: for (;;) {
      if (signal?.aborted) throw new SandboxAbortedError('readFile was aborted.', { path: target.rel, cause: signal.reason });
      if (position >= sizeAtOpen) {
        // The end as of the open: bytes appended since are not read, so a growing file ends the read.
        scannedAll = true;
        break;
      }
      if (Date.now() > deadline) {
        stopped = `the read stopped at its time bound of ${limits.timeMs} ms after ${position} of ${sizeAtOpen} bytes`;
        break;
      }
      const { bytesRead } = await handle.read(buf, 0, Math.min(CHUNK_BYTES, sizeAtOpen - position), position);
      if (bytesRead === 0) {
        scannedAll = true; // shrank since the open
        break;
      }
      if (position === 0 && buf.subarray(0, Math.min(bytesRead, BINARY_SNIFF_BYTES)).includes(0)) {
        throw new SandboxBinaryFileError(nulBytesReason('readFile', target.rel, buf.subarray(0, bytesRead)), {
          path: target.rel,
        });
      }
      if (bytesRead >= NUL_RUN_BYTES && ZEROS.compare(buf, 0, bytesRead, 0, bytesRead) === 0) {
        stopped = `the read stopped at byte ${position} of ${sizeAtOpen}: ${bytesRead} NUL bytes in a row follow (a sparse hole or binary data, not text)`;
        break;
      }
      position += bytesRead;
      let pos = 0;
      while (pos < bytesRead) {
        if (lineNo > lastLine) {
          // The window is full and at least one more byte exists.
          truncated = true;
          break outer;
        }
        const found = buf.indexOf(NL, pos);
        const nl = found === -1 || found >= bytesRead ? -1 : found;
        const end = nl === -1 ? bytesRead : nl;
        if (lineEnding === undefined && nl !== -1) {
          const before = nl > 0 ? buf[nl - 1] : prevByte;
          lineEnding = before === CR ? '\r\n' : '\n';
        }
        if (lineNo >= offset) {
          const room = MAX_LINE_BYTES - partBytes;
          if (room > 0 && end > pos) {
            const take = Math.min(room, end - pos);
            parts.push(Buffer.from(buf.subarray(pos, pos + take)));
            partBytes += take;
          }
          lineBytes += end - pos;
        }
        if (nl === -1) {
          endedWithNewline = false;
          pos = bytesRead;
        } else {
          if (lineNo >= offset) finishLine();
          lineNo += 1;
          endedWithNewline = true;
          pos = nl + 1;
        }
      }
      prevByte = buf[bytesRead - 1]!;
    }
    // A last line without a trailing newline. A line the read stopped in is not shown in part:
    // the window ends before it and `nextOffset` points at it.
    if (scannedAll && !endedWithNewline) {
      if (lineNo >= offset && lineNo <= lastLine) finishLine();
      lineNo += 1;
    }
    const encoding = raw.every((l) => isUtf8(l.bytes))
      ? ('utf-8' as const)
      : guessEncoding(Buffer.concat(raw.slice(0, 2000).map((l) => l.bytes)));
    const longLinesCut: number[] = [];
    const lines = raw.map((l) => {
      let text = encoding === 'utf-8' ? l.bytes.toString('utf8') : decodeText(l.bytes, encoding);
      if (l.total > l.bytes.length || text.length > MAX_LINE_CHARS) {
        const cut = lineCutAt(text, MAX_LINE_CHARS);
        text = `${text.slice(0, cut)}… [line ${l.lineNo} cut: ${l.total} bytes long, first ${cut} characters shown]`;
        longLinesCut.push(l.lineNo);
      }
      return text;
    });
    const firstMissing = lineNo; // number of the first line not seen
    const totalLines = scannedAll ? firstMissing - 1 : undefined;
    const endLine = offset + lines.length - 1;
    if (stopped && !truncated) truncated = true;
    return {
      path: target.rel,
      content: lines.join('\n'),
      startLine: offset,
      endLine,
      totalLines,
      truncated,
      nextOffset: truncated ? endLine + 1 : undefined,
      longLinesCut,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      lineEnding: lineEnding ?? '\n',
      encoding,
      ...(stopped ? { stopped: `${stopped}; the lines before it are shown.` } : {}),
    };
  }
}
