import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { ClearanceError } from '../errors.js';
import { checkedName } from '../operations/context.js';
import { openStoreAt, parseStoreLocation, type StoreLocation } from '../operations/store-location.js';
import type { Store } from '../store/store.js';
import type { Io } from './io.js';
import type { OutputFormat } from './output-format.js';

export type { Io } from './io.js';

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * What every command gets: the operation context (the store, who acts, the lock timeout: a command
 * hands it to the operation it calls, as it is), where the store was named, and how to print.
 */
export type Context = Readonly<{
  /** the file store's directory (where it would be, for a command on another store) */
  dir: string;
  /** where runs are kept: the file store at `dir`, or PostgreSQL */
  store: Store;
  /** where the store was named to be (`store init` works on it before it can be opened) */
  location: StoreLocation;
  by: string;
  /** how long an append waits for the run's lock */
  lockTimeoutMs: number | undefined;
  json: boolean;
  /** `--format`: text for people, or github for a GitHub Actions step's log */
  format: OutputFormat;
  io: Io;
  color: Colors;
  /** the command being run, for what only it knows (where an option's value came from) */
  command: Command;
}>;

const osUser = (): string => {
  try {
    return os.userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
};

/** Who acts: `--by`, else $CLEARANCE_ACTOR, else the OS user; one printable line, checked naming its source. */
const actorFrom = (flag: string | undefined, env: string | undefined): string => {
  if (flag !== undefined) return checkedName(flag, '--by');
  if (env !== undefined) return checkedName(env, 'CLEARANCE_ACTOR');
  return checkedName(osUser(), 'the OS user name (give --by)');
};

/** Colour only on a TTY, never with NO_COLOR, never under --json. */
export const colorsFor = (io: Io, json: boolean): Colors =>
  pc.createColors(
    !json && io.stdout.isTTY === true && (io.env.NO_COLOR ?? '') === '' && io.env.TERM !== 'dumb',
  );

const nonEmpty = (value: string | undefined): string | undefined => (value === '' ? undefined : value);

/** A named file store: a path, or a file: URL. */
const parseDir = (named: string): string => {
  const location = parseStoreLocation(named);
  return location.kind === 'file' ? location.dir : path.resolve(named);
};

/** Commands that never read or write a store: they need not ask git where it is. */
const STORELESS: ReadonlySet<string> = new Set(['demo', 'schema', 'publish', 'wait', 'help', 'audit']);

/** Whether the context opens the store: `store init` prepares one that cannot be opened yet. */
const opensStore = (command: Command): boolean =>
  !STORELESS.has(command.name()) && command.parent?.name() !== 'store';

/**
 * Where the store is: `--dir`, else `CLEARANCE_DIR`, else inside git's own directory of the
 * repository named by `--repo` or around the working directory (`<git common dir>/clearance`:
 * never committed, never in the reviewed tree, shared by linked worktrees, kept across checkouts),
 * else `./.clearance`. Git is asked only when nothing named the store and the command uses one.
 */
const storeDirOf = async (
  command: Command,
  named: string | undefined,
  repo: string | undefined,
): Promise<string> => {
  if (named !== undefined) return parseDir(named);
  // imported only here: git's module loads child_process, which a store named by --dir never needs
  const shared = STORELESS.has(command.name())
    ? undefined
    : await (await import('../revision/shared-git-dir.js')).sharedGitDirOf(path.resolve(repo ?? '.'));
  return shared === undefined ? path.resolve('.clearance') : path.join(shared, 'clearance');
};

export const contextOf = async (command: Command, io: Io): Promise<Context> => {
  const opts = command.optsWithGlobals() as {
    dir?: string;
    store?: string;
    repo?: string;
    by?: string;
    json?: boolean;
    format?: OutputFormat;
    lockTimeout?: number;
  };
  const json = opts.json === true;
  const envTimeout = io.env.CLEARANCE_LOCK_TIMEOUT_MS;
  if (opts.store !== undefined && opts.dir !== undefined) {
    throw new ClearanceError('usage', 'give --store or --dir, not both: --dir <path> is --store <path>');
  }
  for (const [flag, value] of [
    ['--store', opts.store],
    ['--dir', opts.dir],
  ] as const)
    if (value !== undefined && value.trim() === '')
      throw new ClearanceError(
        'usage',
        `${flag} is empty: name the store (a directory or a postgres:// URL), or leave ${flag} out for the default; an unset variable in ${flag} "$STORE" gives this`,
      );
  const named = opts.store ?? opts.dir ?? nonEmpty(io.env.CLEARANCE_STORE) ?? nonEmpty(io.env.CLEARANCE_DIR);
  const location = named === undefined ? undefined : parseStoreLocation(named);
  const dir =
    location?.kind === 'postgres'
      ? path.resolve('.clearance')
      : await storeDirOf(command, location?.dir, opts.repo);
  return {
    dir,
    store: await openStoreAt(
      location?.kind === 'postgres' && opensStore(command) ? location : { kind: 'file', dir },
    ),
    location: location ?? { kind: 'file', dir },
    by: actorFrom(opts.by, nonEmpty(io.env.CLEARANCE_ACTOR)),
    lockTimeoutMs:
      opts.lockTimeout ??
      (envTimeout !== undefined && /^[0-9]+$/.test(envTimeout) ? Number(envTimeout) : undefined),
    json,
    format: opts.format ?? 'text',
    io,
    color: colorsFor(io, json),
    command,
  };
};
