import { isUtf8 } from 'node:buffer';
import * as E from 'fp-ts/lib/Either.js';

/**
 * What a prose review must be before it is read as Markdown: UTF-8 text, not empty, not a JSON
 * report sent to the wrong flag. Each of these used to record a clean round: binary garbage and
 * a JSON report hold no `- [severity]` line, so they read as "nothing found".
 */

/** `message` completes "the review …" */
export type ReviewTextError = Readonly<{ message: string; offset?: number }>;

const NUL = '\u0000';

/** Offset of the first byte that neither starts nor continues a well-formed UTF-8 sequence (RFC 3629). */
export const firstInvalidUtf8 = (bytes: Uint8Array): number | undefined => {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    // the continuation bytes allowed after each lead byte exclude overlong forms, surrogates and > U+10FFFF
    const [length, low, high] =
      lead >= 0xc2 && lead <= 0xdf
        ? [2, 0x80, 0xbf]
        : lead >= 0xe0 && lead <= 0xef
          ? [3, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf]
          : lead >= 0xf0 && lead <= 0xf4
            ? [4, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf]
            : [0, 0, 0];
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k];
      const [lo, hi] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (byte === undefined || byte < lo || byte > hi) return i;
    }
    i += length;
  }
  return undefined;
};

const hex = (byte: number | undefined): string => `0x${(byte ?? 0).toString(16).padStart(2, '0')}`;

const isJsonDocument = (text: string): boolean => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
};

/** The review as text, or why it is not a Markdown review at all. */
export const reviewTextOf = (input: string | Uint8Array): E.Either<ReviewTextError, string> => {
  if (typeof input !== 'string' && !isUtf8(input)) {
    const offset = firstInvalidUtf8(input) ?? 0;
    return E.left({
      message: `is not UTF-8 text: byte ${hex(input[offset])} at offset ${offset} is not valid UTF-8 (binary data, or another encoding?)`,
      offset,
    });
  }
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8').decode(input);
  const nul = text.indexOf(NUL);
  if (nul !== -1) {
    const offset = Buffer.byteLength(text.slice(0, nul));
    return E.left({ message: `is binary, not text: a NUL byte at offset ${offset}`, offset });
  }
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') {
    return E.left({
      message:
        text === ''
          ? 'is empty: a review says what it found, or that it found nothing'
          : 'holds only white space: a review says what it found, or that it found nothing',
    });
  }
  if (trimmed.startsWith('{') || (trimmed.startsWith('[') && isJsonDocument(trimmed))) {
    return E.left({
      message: isJsonDocument(trimmed)
        ? 'is a JSON document, not a Markdown review: record a JSON report with --report'
        : 'starts with "{" like JSON but is not valid JSON; a JSON report goes to --report, and a Markdown review does not start with "{"',
    });
  }
  return E.right(text);
};
