const exact = new TextDecoder('utf-8', { fatal: true });
// ignoreBOM keeps a leading BOM in the lossy text, so byte offsets computed from it stay true.
const lossy = new TextDecoder('utf-8', { ignoreBOM: true });
const REPLACEMENT = '\uFFFD';
const REPLACEMENT_BYTES = [0xef, 0xbf, 0xbd];

export type DecodedText =
  | Readonly<{ ok: true; text: string }>
  /** `offset`: the byte where the first sequence that is not UTF-8 starts */
  | Readonly<{ ok: false; offset: number }>;

/**
 * The text the bytes hold, or where they stop being UTF-8. Never replaces a byte: a report whose
 * text differs from the bytes sent would be recorded, and hashed, as something nobody sent. The
 * decoder is the judge (it refuses overlong forms, surrogates and truncated sequences, as the
 * WHATWG Encoding standard says); the offset is only found once it has refused.
 */
export const decodeUtf8 = (bytes: Uint8Array): DecodedText => {
  try {
    return { ok: true, text: exact.decode(bytes) };
  } catch {
    return { ok: false, offset: firstInvalidOffset(bytes) };
  }
};

// Everything before the first invalid sequence decodes exactly, so the UTF-8 length of the lossy
// text before a U+FFFD is that U+FFFD's byte offset. A U+FFFD that the input really held (EF BF BD)
// is skipped: it is text, not a replacement.
const firstInvalidOffset = (bytes: Uint8Array): number => {
  const text = lossy.decode(bytes);
  let offset = 0;
  let from = 0;
  for (;;) {
    const at = text.indexOf(REPLACEMENT, from);
    if (at < 0) return bytes.length;
    offset += Buffer.byteLength(text.slice(from, at), 'utf8');
    if (!REPLACEMENT_BYTES.every((b, i) => bytes[offset + i] === b)) return offset;
    offset += REPLACEMENT_BYTES.length;
    from = at + 1;
  }
};
