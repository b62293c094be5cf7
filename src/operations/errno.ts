import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { ClearanceError, isClearanceError } from '../errors.js';
import { readOwner } from '../store/lock-owner.js';

type ErrnoError = Error & { code: string; syscall?: string; path?: string; dest?: string };

const isErrno = (e: unknown): e is ErrnoError =>
  e instanceof Error &&
  typeof (e as { code?: unknown }).code === 'string' &&
  /^E[A-Z0-9]+$/.test((e as unknown as { code: string }).code) &&
  typeof (e as { syscall?: unknown }).syscall === 'string';

const inside = (dir: string, p: string): boolean => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

const isRegularFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * Whether the nearest existing directory above `p` is on a read-only file system. Node's recursive
 * mkdir reports ENOENT, not EROFS, when it cannot create a directory there; access(2) tells the truth.
 */
const onReadOnlyFileSystem = (p: string): boolean => {
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    try {
      accessSync(at, constants.W_OK);
      return false;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EROFS') return true;
      if (code !== 'ENOENT' || at === path.dirname(at)) return false;
    }
  }
};

/**
 * What an I/O failure means for the person at the keyboard: an operational code (with its exit
 * status in `exit-codes.ts`), the path, and the fix. Node's errno errors from any layer (the store,
 * handoff, input, revision) reach the command line's edge here, in one place, rather than through a
 * try/catch around every call; `undefined` when `error` is not one (a bug stays a bug).
 *
 * `dir` is the store: a failure inside it is told as a problem with `--dir`.
 */
export const describeErrno = (error: unknown, dir: string | undefined): ClearanceError | undefined => {
  if (!isErrno(error)) return undefined;
  const at = error.path ?? error.dest ?? '';
  // a read or write through a descriptor names no path: in clearance that is nearly always the store
  const inStore = dir !== undefined && (at === '' || inside(dir, path.resolve(at)));
  const where =
    at !== ''
      ? `${at} (${error.syscall})`
      : dir !== undefined
        ? `${dir} (${error.syscall})`
        : `(${error.syscall})`;
  const details = { path: at, syscall: error.syscall, errno: error.code };
  const store = inStore ? ` the store is ${dir}: give --dir (or CLEARANCE_DIR) another directory, or` : '';
  const code = error.code === 'ENOENT' && at !== '' && onReadOnlyFileSystem(at) ? 'EROFS' : error.code;
  switch (code) {
    case 'EPIPE':
      return new ClearanceError('output-closed', 'standard output was closed by its reader', details);
    case 'ENOSPC':
    case 'EDQUOT':
      return new ClearanceError(
        'no-space',
        `no space left on the device holding ${where}:${store} free some space, then run the command again`,
        details,
      );
    case 'EROFS':
      return new ClearanceError(
        'read-only',
        `${where} is on a read-only file system:${store || ' write elsewhere, or'} remount it read-write`,
        details,
      );
    case 'EACCES':
    case 'EPERM':
      return new ClearanceError(
        'permission-denied',
        `permission denied on ${where}:${store} check its owner and mode`,
        details,
      );
    case 'ENOTDIR':
    case 'EEXIST':
    case 'EISDIR':
    case 'ELOOP':
    case 'ENAMETOOLONG': {
      const what =
        code === 'ELOOP'
          ? 'it goes through a loop of symbolic links'
          : code === 'ENAMETOOLONG'
            ? 'the name is too long'
            : code === 'EISDIR'
              ? 'a directory is where a file should be'
              : 'a file (or device) is in it where a directory should be';
      return new ClearanceError(
        inStore ? 'store-unusable' : 'io-error',
        inStore
          ? `the store ${dir} cannot be used at ${where}: ${what}; give --dir (or CLEARANCE_DIR) a directory, or a path that does not exist yet`
          : `cannot use ${where}: ${what}`,
        details,
      );
    }
    default:
      return new ClearanceError(
        'io-error',
        `I/O error on ${where}: ${error.message}; check the device${inStore ? ` and the store ${dir}` : ''}`,
        details,
      );
  }
};

/**
 * A lock that times out because its path is a regular file that holds no holder's record (a
 * clearance lock is a file holding one, src/store/lock-owner.ts) was never held by anyone: say so,
 * rather than "another process is appending", which would send the user waiting for nobody.
 */
export const describeLockInTheWay = (error: unknown): ClearanceError | undefined => {
  const lock = isClearanceError(error)
    ? error.code === 'lock-timeout'
      ? error.details.lock
      : undefined
    : isErrno(error) && error.path?.endsWith('.lock')
      ? error.path
      : undefined;
  if (typeof lock !== 'string' || !isRegularFile(lock) || readOwner(lock) !== null) return undefined;
  return new ClearanceError(
    'store-unusable',
    `the lock ${lock} is a file that records no holder, so no process holds it: remove it (a clearance lock records its holder)`,
    { lock },
  );
};
