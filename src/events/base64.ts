/**
 * Base64 (RFC 4648 §4, with padding) for the pure layer, which may use no Node built-in: SSH keys
 * and signatures travel as base64, and the fold checks signed rulings in a browser too.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

export const toBase64 = (bytes: Uint8Array): string => {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    out += ALPHABET[(n >> 18) & 63] ?? '';
    out += ALPHABET[(n >> 12) & 63] ?? '';
    out += i + 1 < bytes.length ? (ALPHABET[(n >> 6) & 63] ?? '') : '=';
    out += i + 2 < bytes.length ? (ALPHABET[n & 63] ?? '') : '=';
  }
  return out;
};

/** The bytes of canonical base64 text, or null when it is not (wrong length, padding or letter). */
export const fromBase64 = (text: string): Uint8Array | null => {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    const n =
      ((VALUE.get(text[i] as string) ?? 0) << 18) |
      ((VALUE.get(text[i + 1] as string) ?? 0) << 12) |
      ((VALUE.get(text[i + 2] as string) ?? 0) << 6) |
      (VALUE.get(text[i + 3] as string) ?? 0);
    for (const byte of [(n >> 16) & 255, (n >> 8) & 255, n & 255]) if (at < out.length) out[at++] = byte;
  }
  // a non-canonical encoding (stray bits in the last letter) names other bytes than it reads back as
  return toBase64(out) === text ? out : null;
};
