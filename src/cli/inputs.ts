import { Option } from 'commander';
import { ClearanceError } from '../errors.js';
import { DEFAULT_MAX_BYTES } from '../handoff/wait-budget.js';
import { type BoundedInput, readBoundedInput, readBoundedStream } from '../input/read-bounded.js';
import { parseStrictJson } from '../input/strict-json.js';
import { decodeUtf8 } from '../input/utf8.js';
import type { Io } from './context.js';
import { parsePositiveInt } from './option-values.js';

/**
 * The largest `--max-bytes` accepted: the text of an input must fit in one JavaScript string
 * (V8 allows about 512 Mi UTF-16 units), with room for the copies a parse makes.
 */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** How an input that is not what its command reads is refused: with that command's own code. */
export type Refuse = (message: string, details?: Readonly<Record<string, unknown>>) => ClearanceError;

export type InputOptions = Readonly<{
  /** the largest input accepted (default 4 MiB); never more than this + 1 bytes is read */
  maxBytes?: number;
  /** how text that is not UTF-8 is refused (default `input-unreadable`) */
  refuse?: Refuse;
}>;

/** `--max-bytes`, for every command that reads a file or standard input. */
export const maxBytesOption = (defaultBytes: number = DEFAULT_MAX_BYTES): Option =>
  new Option(
    '--max-bytes <n>',
    defaultBytes === MAX_INPUT_BYTES
      ? `the largest input read, in bytes (default and most: ${MAX_INPUT_BYTES}); larger is refused as oversized`
      : `the largest input read, in bytes (default ${defaultBytes}, at most ${MAX_INPUT_BYTES}); larger is refused as oversized`,
  ).argParser(parsePositiveInt);

const nameOf = (source: string): string => (source === '-' ? 'standard input' : source);

const unreadable: Refuse = (message, details) => new ClearanceError('input-unreadable', message, details);

/**
 * The bytes of `FILE`, or of standard input for `-`, read through the one bounded reader: never
 * more than `maxBytes + 1` bytes, refused as `oversized` beyond. A file that cannot be read is a
 * usage error naming it.
 */
export const readInput = async (
  source: string,
  io: Io,
  what: string,
  maxBytes: number = DEFAULT_MAX_BYTES,
): Promise<Buffer> => {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_INPUT_BYTES) {
    throw new ClearanceError(
      'usage',
      `--max-bytes must be a positive integer no greater than ${MAX_INPUT_BYTES}, got ${maxBytes}`,
      { maxBytes },
    );
  }
  let read: BoundedInput;
  try {
    read =
      source === '-' ? await readBoundedStream(io.stdin, maxBytes) : await readBoundedInput(source, maxBytes);
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ClearanceError(
      'input-unreadable',
      `cannot read ${what} ${nameOf(source)}: ${(e as Error).message}; check the path`,
      { path: source, reason },
    );
  }
  switch (read.kind) {
    case 'not-a-file':
      throw new ClearanceError('input-unreadable', `cannot read ${what} ${source}: it is ${read.what}`, {
        path: source,
      });
    case 'oversized':
      throw new ClearanceError(
        'oversized',
        `${what} ${nameOf(source)} is larger than --max-bytes ${maxBytes}: raise --max-bytes if it is meant to be this large`,
        { path: source, maxBytes, bytesRead: read.bytesRead },
      );
    case 'read':
      return read.bytes;
  }
};

/**
 * The text of `FILE`, or of standard input for `-`: bounded as `readInput`, and exactly the UTF-8
 * that was sent. Bytes that are not UTF-8 are refused naming the offset, never replaced.
 */
export const readTextInput = async (
  source: string,
  io: Io,
  what: string,
  options: InputOptions = {},
): Promise<string> => {
  const bytes = await readInput(source, io, what, options.maxBytes);
  const decoded = decodeUtf8(bytes);
  if (decoded.ok) return decoded.text;
  throw (options.refuse ?? unreadable)(
    `${what} ${nameOf(source)} is not UTF-8 text: the bytes at offset ${decoded.offset} are not a UTF-8 sequence (save it as UTF-8)`,
    { path: source, offset: decoded.offset },
  );
};

/**
 * Parse JSON text exactly: a duplicated key, an integer JSON cannot carry exactly and nesting
 * deeper than 64 are refused along with what is not JSON, naming the source and where.
 */
export const parseJsonInput = (text: string, source: string, refuse: Refuse): unknown => {
  const parsed = parseStrictJson(text);
  if (parsed.ok) return parsed.value;
  throw refuse(`${nameOf(source)}: ${parsed.message}`, {
    path: source,
    ...(parsed.path === undefined ? {} : { at: parsed.path }),
    ...(parsed.offset === undefined ? {} : { offset: parsed.offset }),
  });
};
