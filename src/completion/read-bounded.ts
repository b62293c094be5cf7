import { constants, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { Deadline } from './deadline.js';

/** What one bounded look at the report file found. */
export type BoundedRead =
  | Readonly<{ kind: 'missing' }>
  | Readonly<{ kind: 'expired' }>
  | Readonly<{ kind: 'not-a-file'; what: string }>
  /** `bytesRead` is always `maxBytes + 1`; `bytes` what the file was seen to hold, at least that */
  | Readonly<{ kind: 'oversized'; bytes: number; bytesRead: number }>
  | Readonly<{ kind: 'read'; bytes: Buffer }>;

// Small enough that a deadline is checked often while reading a large report, large enough that
// a real ~80 KB report takes two reads.
const CHUNK_BYTES = 64 * 1024;

// A FIFO opened for reading blocks until a writer appears, and a deadline cannot interrupt a
// blocked open; O_NONBLOCK makes that open return at once so fstat can refuse the FIFO. It has no
// effect on regular files (and does not exist on Windows, where FIFOs do not either).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const kindOf = (stats: Stats): string =>
  stats.isDirectory()
    ? 'a directory'
    : stats.isFIFO()
      ? 'a FIFO'
      : stats.isSocket()
        ? 'a socket'
        : stats.isCharacterDevice() || stats.isBlockDevice()
          ? 'a device'
          : 'not a regular file';

const isMissing = (e: unknown): boolean => (e as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/**
 * Read the report at `path` without ever reading more than `maxBytes + 1` bytes (one more than
 * allowed is how we know it is too large), checking the deadline before every chunk. A missing
 * file is not an error: the producer has not published yet. Any other I/O error is thrown as is.
 *
 * The bytes come from one open file description: a producer renaming a new report over the path
 * while we read cannot mix two reports, we finish reading the one we opened.
 */
export const readBounded = async (
  path: string,
  maxBytes: number,
  deadline: Deadline,
): Promise<BoundedRead> => {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (e) {
    if (isMissing(e)) return { kind: 'missing' };
    throw e;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'not-a-file', what: kindOf(stats) };
    // The size from fstat is not trusted to stop the read: a writer may append in place after it,
    // and some files (procfs) report 0. The loop's own bound is what keeps the read small.
    const limit = maxBytes + 1;
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < limit) {
      if (deadline.expired()) return { kind: 'expired' };
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > maxBytes) return { kind: 'oversized', bytes: Math.max(stats.size, total), bytesRead: total };
    return { kind: 'read', bytes: Buffer.concat(chunks, total) };
  } finally {
    await handle.close();
  }
};
