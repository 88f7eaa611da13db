import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type { TextEncodingGuess } from '@aibuddy/sandbox';

/** Bytes looked at to guess the encoding of text that is not UTF-8. */
const GUESS_BYTES = 64 * 1024;

/**
 * Guesses the encoding of text bytes. `utf-8` is certain (the bytes are valid UTF-8, which plain
 * ASCII is too); the others are guesses from the shape of the non-ASCII bytes: GBK (and GB18030)
 * writes Chinese characters as pairs of bytes from A1-FE, while Latin-1 / Windows-1252 text has
 * single accented bytes between ASCII letters.
 */
export function guessEncoding(bytes: Uint8Array): TextEncodingGuess {
  if (isUtf8(bytes)) return 'utf-8';
  const sample = bytes.subarray(0, GUESS_BYTES);
  let high = 0;
  let paired = 0;
  let single = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if (b < 0x80) continue;
    const prev = sample[i - 1];
    const next = sample[i + 1];
    if (b >= 0x81 && b <= 0xfe && next !== undefined && next >= 0x80 && next <= 0xfe) {
      // Two high bytes in a row: a GBK character; common Chinese text keeps both in A1-FE.
      if (b >= 0xa1 && next >= 0xa1) paired += 2;
      high += 2;
      i++;
      continue;
    }
    high++;
    if ((prev === undefined || prev < 0x80) && (next === undefined || next < 0x80)) single++;
  }
  if (high === 0) return 'unknown';
  if (paired / high >= 0.8) return 'gbk?';
  if (single / high >= 0.5) return 'latin-1?';
  return 'unknown';
}

const decoders = new Map<string, TextDecoder | null>();

function decoderFor(label: string): TextDecoder | undefined {
  if (!decoders.has(label)) {
    try {
      decoders.set(label, new TextDecoder(label));
    } catch {
      decoders.set(label, null); // a Node built without full ICU has no GBK decoder
    }
  }
  return decoders.get(label) ?? undefined;
}

/** Decodes text bytes in the guessed encoding (invalid bytes become U+FFFD); UTF-8 when unknown. */
export function decodeText(bytes: Uint8Array, encoding: TextEncodingGuess): string {
  const label = encoding === 'gbk?' ? 'gbk' : encoding === 'latin-1?' ? 'windows-1252' : undefined;
  const decoder = label === undefined ? undefined : decoderFor(label);
  return decoder ? decoder.decode(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** How an encoding guess is named in messages. */
export function encodingName(encoding: TextEncodingGuess): string {
  switch (encoding) {
    case 'utf-8':
      return 'UTF-8';
    case 'gbk?':
      return 'probably GBK (Chinese)';
    case 'latin-1?':
      return 'probably Latin-1 / Windows-1252';
    default:
      return 'an unknown 8-bit encoding';
  }
}

/**
 * Why text with NUL bytes is refused: a UTF-16 or UTF-32 file (told by its byte order mark; PowerShell
 * and many Windows tools write UTF-16) is text in an encoding these tools do not read, anything
 * else looks binary. Says how to go on either way.
 */
export function nulBytesReason(operation: 'readFile' | 'editFile', rel: string, head: Uint8Array): string {
  const verb = operation === 'readFile' ? 'read' : 'edited';
  const bom =
    head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0
      ? 'UTF-32LE'
      : head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff
        ? 'UTF-32BE'
        : head[0] === 0xff && head[1] === 0xfe
          ? 'UTF-16LE'
          : head[0] === 0xfe && head[1] === 0xff
            ? 'UTF-16BE'
            : undefined;
  if (bom) {
    return `${operation}: "${rel}" is ${bom} text (it starts with a ${bom} byte order mark), which cannot be ${verb} here; convert it to UTF-8 first (for example: iconv -f ${bom.replace(/(LE|BE)$/, '')} -t UTF-8 "${rel}" > "${rel}.utf8").`;
  }
  return `${operation}: "${rel}" looks binary (it has NUL bytes); it cannot be ${verb} as text.`;
}
