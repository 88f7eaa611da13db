import type { ReadFileOptions, ReadFileResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxArgumentError, SandboxBinaryFileError } from '@aibuddy/sandbox';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Default number of lines in a window. */
export const DEFAULT_READ_LIMIT = 2000;
/** Lines longer than this many characters are cut with a marker. */
export const MAX_LINE_CHARS = 2000;
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

/**
 * Reads a window of lines by streaming fixed-size chunks: lines before the window are only
 * counted, lines in it are kept (each cut to MAX_LINE_BYTES), and reading stops as soon as the
 * window is full and one more byte proves the file goes on. Memory is bounded by the window, not
 * by the file. It reads only from `handle`, an already opened regular file (`stat` is its
 * `fstat`), so what was checked is what is read; the caller closes the handle. The signal is
 * checked before every chunk.
 */
export async function readFileWindow(
  handle: FileHandle,
  stat: Stats,
  rel: string,
  options: ReadFileOptions | undefined,
): Promise<ReadFileResult> {
  const { offset, limit } = readWindowOptions(options);
  const signal = options?.signal;
  const target = { rel };
  {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    const lastLine = offset + limit - 1;
    const lines: string[] = [];
    const longLinesCut: number[] = [];
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

    const finishLine = () => {
      let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, partBytes);
      let total = lineBytes;
      if (bytes.length > 0 && bytes[bytes.length - 1] === CR && bytes.length === total) {
        bytes = bytes.subarray(0, bytes.length - 1);
        total -= 1;
      }
      let text = bytes.toString('utf8');
      if (total > bytes.length || text.length > MAX_LINE_CHARS) {
        let cut = MAX_LINE_CHARS;
        const code = text.charCodeAt(cut - 1);
        if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // never split a surrogate pair
        text = `${text.slice(0, cut)}… [line ${lineNo} cut: ${total} bytes long, first ${cut} characters shown]`;
        longLinesCut.push(lineNo);
      }
      lines.push(text);
      parts = [];
      partBytes = 0;
      lineBytes = 0;
    };

    outer: for (;;) {
      if (signal?.aborted) throw new SandboxAbortedError('readFile was aborted.', { path: target.rel, cause: signal.reason });
      const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) {
        scannedAll = true;
        break;
      }
      if (position === 0 && buf.subarray(0, Math.min(bytesRead, BINARY_SNIFF_BYTES)).includes(0)) {
        throw new SandboxBinaryFileError(
          `readFile: "${target.rel}" looks binary (it has NUL bytes); it cannot be read as text.`,
          { path: target.rel },
        );
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
    // A last line without a trailing newline.
    if (scannedAll && !endedWithNewline) {
      if (lineNo >= offset && lineNo <= lastLine) finishLine();
      lineNo += 1;
    }
    const firstMissing = lineNo; // number of the first line not seen
    const totalLines = scannedAll ? firstMissing - 1 : undefined;
    const endLine = offset + lines.length - 1;
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
    };
  }
}
