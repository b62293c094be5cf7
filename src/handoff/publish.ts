import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { ClearanceError } from '../errors.js';

// What some platforms answer when asked to fsync a directory (or to open one at all): Windows
// refuses both, and a few filesystems do not support it. The rename is already done by then; only
// its durability across a power cut is left to the filesystem.
const DIRECTORY_SYNC_REFUSALS = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EBADF']);

const errnoCode = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

const describeValue = (value: unknown): string | undefined => {
  switch (typeof value) {
    case 'bigint':
      return 'a BigInt';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    case 'number':
      return Number.isFinite(value) ? undefined : String(value);
    default:
      return value instanceof Map ? 'a Map' : value instanceof Set ? 'a Set' : undefined;
  }
};

const cannotPublish = (path: string, why: string, key?: string): ClearanceError =>
  new ClearanceError(
    'malformed',
    `cannot publish ${path}: ${why}`,
    key === undefined ? { path } : { path, key },
  );

/**
 * The report as JSON text, or a refusal. JSON.stringify would turn NaN into null, drop a function or
 * a Map's entries and silently change what the producer meant, so those are refused with where
 * they were found. An `undefined` object property is the one loss allowed: it means "absent".
 */
export const serialise = (path: string, report: unknown): string => {
  const refuse = (what: string, key: string): never => {
    const where = key === '' ? 'the report itself' : `key ${JSON.stringify(key)}`;
    throw cannotPublish(path, `JSON cannot represent ${what} (at ${where})`, key);
  };
  let text: string | undefined;
  try {
    text = JSON.stringify(report, function (this: unknown, key: string, value: unknown) {
      const what = describeValue(value);
      if (what !== undefined) refuse(what, key);
      if (value === undefined && (key === '' || Array.isArray(this))) refuse('undefined', key);
      return value;
    });
  } catch (e) {
    if (e instanceof ClearanceError) throw e;
    // a cycle, or a toJSON that throws
    throw cannotPublish(path, e instanceof Error ? e.message : String(e));
  }
  if (text === undefined) return refuse('undefined', '');
  return `${text}\n`;
};

const syncDirectory = async (dir: string): Promise<void> => {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (e) {
    if (!DIRECTORY_SYNC_REFUSALS.has(errnoCode(e) ?? '')) throw e;
  } finally {
    await handle?.close();
  }
};

/**
 * Create the directories missing on the way to `dir`, as `mkdir -p` does, and make their names
 * durable: each new directory's entry lives in its parent, so every parent from the first one that
 * already existed down is fsynced.
 */
const ensureDirectory = async (dir: string): Promise<void> => {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  const existing = dirname(first);
  const chain = [existing];
  for (let d = dirname(dir); relative(existing, d) !== '' && d !== dirname(d); d = dirname(d)) chain.push(d);
  for (const d of chain) await syncDirectory(d);
};

/**
 * Publish a round report so that a waiter sees either the old file or the whole new one, never a
 * part: write a temporary file in the same directory (a rename is only atomic within one
 * filesystem), fsync it so the rename can never expose a file whose bytes are not on disk, rename
 * it over `path`, then fsync the directory so the rename itself survives a crash.
 *
 * The report is not validated here (the waiter does that, for producers in any language), but a
 * value JSON cannot represent is refused (`malformed`) before anything is written. I/O errors are
 * thrown as Node raised them; on every failure the temporary file is removed. Directories missing
 * on the way to `path` are created (`review/round-2.json` in a fresh checkout works).
 */
export const publishReport = async (path: string, report: unknown): Promise<void> => {
  const text = serialise(path, report);
  const dir = dirname(path);
  await ensureDirectory(dir);
  // pid + random: two producers (or two publishes in one process) never share a temporary file,
  // and `wx` refuses to reuse one that somehow exists instead of writing into it.
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx');
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (e) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncDirectory(dir);
};
