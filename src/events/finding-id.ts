import { sha256Hex } from './sha256.js';

/**
 * A finding's identity. It never changes: not when its line moves, not when its file is renamed
 * (the finding's `file` moves, its id stays the one it was born with).
 */
export const findingId = (f: Readonly<{ file: string; category: string; summary: string }>): string =>
  sha256Hex(JSON.stringify([f.file, f.category, f.summary]));
