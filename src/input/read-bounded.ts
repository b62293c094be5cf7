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

const NO_DEADLINE: Pick<Deadline, 'expired'> = { expired: () => false };

/**
 * Read from `handle` until its end or `limit` bytes, whichever comes first, never asking for more:
 * the one loop every input of clearance is read through. `positional` reads a regular file from
 * offset 0 whatever its descriptor's position; a pipe or a device is read in order.
 */
const readAtMost = async (
  handle: FileHandle,
  limit: number,
  positional: boolean,
  deadline: Pick<Deadline, 'expired'>,
): Promise<Buffer | 'expired'> => {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    if (deadline.expired()) return 'expired';
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, positional ? total : null);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
};

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
    const bytes = await readAtMost(handle, maxBytes + 1, true, deadline);
    if (bytes === 'expired') return { kind: 'expired' };
    if (bytes.length > maxBytes) {
      return { kind: 'oversized', bytes: Math.max(stats.size, bytes.length), bytesRead: bytes.length };
    }
    return { kind: 'read', bytes };
  } finally {
    await handle.close();
  }
};

/** What reading one input given on the command line found. */
export type BoundedInput =
  | Readonly<{ kind: 'not-a-file'; what: string }>
  | Readonly<{ kind: 'oversized'; bytesRead: number }>
  | Readonly<{ kind: 'read'; bytes: Buffer }>;

/**
 * Read an input the user names (`--report FILE`, `--output FILE`, ...) with the same bound as a
 * wait: never more than `maxBytes + 1` bytes. Unlike a wait's report path, a pipe or a device is
 * read too (`--report <(reviewer)`, `/dev/stdin`): the user chose it, and opening it blocks until
 * its writer comes, as `cat` does. A directory is refused. I/O errors (ENOENT, EACCES, ...) are
 * thrown as Node raised them, for the caller to name.
 */
export const readBoundedInput = async (path: string, maxBytes: number): Promise<BoundedInput> => {
  const handle = await open(path, 'r');
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) return { kind: 'not-a-file', what: kindOf(stats) };
    const bytes = (await readAtMost(handle, maxBytes + 1, stats.isFile(), NO_DEADLINE)) as Buffer;
    return bytes.length > maxBytes ? { kind: 'oversized', bytesRead: bytes.length } : { kind: 'read', bytes };
  } finally {
    await handle.close();
  }
};

/**
 * Read a stream (standard input) up to `maxBytes + 1` bytes, then stop pulling: a producer that
 * never ends, or sends gigabytes, costs at most that much memory.
 */
export const readBoundedStream = async (
  stream: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<Exclude<BoundedInput, { kind: 'not-a-file' }>> => {
  const limit = maxBytes + 1;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    const kept = bytes.subarray(0, limit - total);
    chunks.push(kept);
    total += kept.length;
    if (total >= limit) break;
  }
  return total > maxBytes
    ? { kind: 'oversized', bytesRead: total }
    : { kind: 'read', bytes: Buffer.concat(chunks, total) };
};
