import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import {
  maxRoundsOf,
  type RunState,
  type RunStatus,
  STATE_SHAPE_VERSION,
} from '@clearance/fold/internal/projections/state.js';

/**
 * A run's folded state at a known point of its log, so an append (and a reader) folds only the
 * bytes appended since. Kept in memory by the process that appended, and on disk beside the log
 * (`<runId>.fold`), written by appenders under the run's lock and never by a reader.
 *
 * The log stays the only truth: a checkpoint is used only when the log is still the same file
 * (inode and change time), still has `size` bytes and the line at `lineStart` still hashes to
 * `hash`; anything else (another format, another state shape, a torn or edited file, a log
 * written since by anyone) is ignored and the log is folded from the start.
 */
export type FoldCheckpoint = Readonly<{
  /**
   * the log file as it was when folded: its inode and change time. Any write to it, an edit
   * inside an old line included, moves the change time (which no user can set), so an edit that
   * keeps the size and the last line still makes the checkpoint not match.
   */
  file: LogFile;
  /** bytes of the log folded: up to and including the last line's `\n` */
  size: number;
  seq: number;
  /** SHA-256 of the last folded line (its `prev` for the next one) */
  hash: string;
  /** where that last line starts */
  lineStart: number;
  /** events folded, and how many of them the rules refused */
  events: number;
  refused: number;
  state: RunState;
}>;

export type LogFile = Readonly<{ ino: number; ctimeMs: number }>;

/** Where the run stands, for a listing of every run: read from the header alone. */
export type RunSummary = Readonly<{ status: RunStatus; round: number; maxRounds: number | null }>;

/** A log as an appender left it: the file, its size, and its last line (what `matchesFile` and `lastLineHolds` check). */
export type LogEnd = Omit<FoldCheckpoint, 'state'>;

/** The state line a checkpoint file holds: how long its JSON is, and that JSON's SHA-256. */
export type StoredState = Readonly<{ bytes: number; sha: string }>;

/**
 * What `<runId>.fold` holds: the log as its last appender left it (`end`), and a state folded to
 * that line or to an earlier one (`at`), whose line is kept as `stored`. A reader folds the lines
 * from `at` to `end`: an appender rewrites the header (a few hundred bytes) at every append, and
 * the state only once the lines after it are a quarter of its size (`stateIsDue`), so an append
 * does not serialise and hash a large state each time.
 */
export type StoredCheckpoint = Readonly<{
  end: LogEnd;
  at: FoldCheckpoint;
  summary: RunSummary;
  stored: StoredState;
}>;

/** A checkpoint without its state: what a listing of every run needs (`end` spread, and where the state is). */
export type CheckpointHeader = LogEnd &
  Readonly<{ summary: RunSummary; state: Omit<LogEnd, 'file'>; stored: StoredState }>;

const summaryOf = (state: RunState): RunSummary => ({
  status: state.status,
  round: state.round,
  maxRounds: state.run === null ? null : maxRoundsOf(state),
});

/** A state as every checkpoint keeps it (the file's second line, PostgreSQL's column): JSON and its SHA-256. */
export type EncodedState = Readonly<{ json: string; sha: string }>;

/**
 * The state serialised generically, whatever its fields: a changed `RunState` only needs
 * `STATE_SHAPE_VERSION` bumped, and a checkpoint keyed on another version is ignored by its reader.
 */
export const encodeState = (state: RunState): EncodedState => {
  const json = JSON.stringify(state);
  return { json, sha: sha256Hex(json) };
};

/** The state back, or null when its text is not what `sha` was taken of, or not a JSON object. */
export const decodeState = (json: string, sha: string): RunState | null => {
  if (sha256Hex(json) !== sha) return null;
  try {
    const state: unknown = JSON.parse(json);
    return typeof state === 'object' && state !== null && !Array.isArray(state) ? (state as RunState) : null;
  } catch {
    return null;
  }
};

/**
 * Whether an appender at `end` writes the state again rather than the header alone: when the lines
 * a reader would fold after the stored state reach `share` of that state's JSON (a quarter in a
 * file). Both costs then stay in proportion (a reader folds at most that much; the state is
 * written once per that much).
 */
export const stateIsDue = (
  stored: Readonly<{ size: number; bytes: number }>,
  end: Readonly<{ size: number }>,
  share = 1 / 4,
) => end.size - stored.size >= stored.bytes * share;

// The file format's tag; it keeps its first name, since checkpoints already written carry it.
const FORMAT = 'clearance.fold-cache';
// 2: the header has a fixed length and says where the state line was folded to (it may lag the end)
const VERSION = 2;
/** The header line's length, `\n` included: fixed, so it is rewritten in place without the state. */
export const HEADER_BYTES = 1024;

const position = (c: Omit<LogEnd, 'file'>) => ({
  size: c.size,
  seq: c.seq,
  hash: c.hash,
  lineStart: c.lineStart,
  events: c.events,
  refused: c.refused,
});

/**
 * The header line: its own SHA-256, a space, then JSON (format, versions, the log file and where
 * it ends, the run's summary there, where the state line was folded to and its SHA-256), padded
 * with spaces to `HEADER_BYTES`. Its hash catches a torn or half-rewritten header, and lets a
 * listing trust it without the state.
 */
const encodeHeader = (
  end: LogEnd,
  summary: RunSummary,
  at: Omit<LogEnd, 'file'>,
  stored: StoredState,
): string => {
  const header = JSON.stringify({
    format: FORMAT,
    v: VERSION,
    shape: STATE_SHAPE_VERSION,
    ino: end.file.ino,
    ctimeMs: end.file.ctimeMs,
    ...position(end),
    summary,
    state: { ...position(at), bytes: stored.bytes, sha: stored.sha },
  });
  const line = `${sha256Hex(header)} ${header}`;
  if (line.length >= HEADER_BYTES) throw new Error(`checkpoint: a header of ${line.length} characters`);
  return `${line.padEnd(HEADER_BYTES - 1)}\n`;
};

/** A checkpoint whose state is at the log's end: the header, then the state as JSON. */
export const encodeCheckpoint = (c: FoldCheckpoint): string => {
  const { json, sha } = encodeState(c.state);
  return `${encodeHeader(c, summaryOf(c.state), c, { bytes: Buffer.byteLength(json), sha })}${json}\n`;
};

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const isHash = (h: unknown): h is string => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h);

/** A position's fields, each a count or a hash, its line within its size; or null. */
const positionOf = (h: Record<string, unknown>): Omit<LogEnd, 'file'> | null =>
  [h.size, h.seq, h.lineStart, h.events, h.refused].every(isCount) &&
  isHash(h.hash) &&
  (h.lineStart as number) <= (h.size as number)
    ? {
        size: h.size as number,
        seq: h.seq as number,
        hash: h.hash,
        lineStart: h.lineStart as number,
        events: h.events as number,
        refused: h.refused as number,
      }
    : null;

const decodeHeader = (line: string): CheckpointHeader | null => {
  const header = line.trimEnd().slice(65);
  if (line[64] !== ' ' || sha256Hex(header) !== line.slice(0, 64)) return null;
  try {
    const h = JSON.parse(header) as Record<string, unknown>;
    if (h.format !== FORMAT || h.v !== VERSION || h.shape !== STATE_SHAPE_VERSION) return null;
    if (!isCount(h.ino) || typeof h.ctimeMs !== 'number') return null;
    const end = positionOf(h);
    const state = typeof h.state === 'object' && h.state !== null ? (h.state as Record<string, unknown>) : {};
    const at = positionOf(state);
    if (end === null || at === null || !isCount(state.bytes) || !isHash(state.sha)) return null;
    // the state is at the end's line or before it
    if (at.seq > end.seq || at.size > end.size) return null;
    const summary = h.summary as RunSummary;
    return {
      file: { ino: h.ino, ctimeMs: h.ctimeMs },
      ...end,
      summary: { status: summary.status, round: summary.round, maxRounds: summary.maxRounds },
      state: at,
      stored: { bytes: state.bytes, sha: state.sha },
    };
  } catch {
    return null;
  }
};

export const decodeCheckpoint = (text: string): StoredCheckpoint | null => {
  const end = text.indexOf('\n');
  const stateEnd = text.indexOf('\n', end + 1);
  if (end === -1 || stateEnd === -1) return null;
  const header = decodeHeader(text.slice(0, end));
  if (header === null) return null;
  const state = decodeState(text.slice(end + 1, stateEnd), header.stored.sha);
  if (state === null) return null;
  const { summary, state: at, stored, ...logEnd } = header;
  return { end: logEnd, at: { ...at, file: logEnd.file, state }, summary, stored };
};

/** `read` of a checkpoint file opened never through a link; null when it cannot be opened or read. */
const readNoFollow = <T>(file: string, read: (fd: number) => T | null): T | null => {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    return read(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
};

/** Longer than any header, so a header is read in one `read`. */
const HEADER_READ = 2048;
const headerBuffer = Buffer.alloc(HEADER_READ);

/** A checkpoint's header alone (its state neither read whole, parsed nor hashed), or null. */
export const readCheckpointHeader = (file: string): CheckpointHeader | null =>
  readNoFollow(file, (fd) => {
    const n = readSync(fd, headerBuffer, 0, HEADER_READ, 0);
    const end = headerBuffer.subarray(0, n).indexOf(0x0a);
    return end === -1 ? null : decodeHeader(headerBuffer.toString('utf8', 0, end));
  });

/** The checkpoint on disk, or null when there is none or it cannot be trusted as a checkpoint. */
export const readCheckpoint = (file: string): StoredCheckpoint | null =>
  readNoFollow(file, (fd) => decodeCheckpoint(readFileSync(fd, 'utf8')));

/** The state line an appender knows to be on disk: where it was folded to, its length and SHA-256. */
export type KnownState = Omit<LogEnd, 'file'> & StoredState;

/**
 * Rewrite the checkpoint in place for the log's end `c`: the header alone when `known` (the
 * state line this process last wrote or read there) is not yet due (`stateIsDue`), else the state
 * too, padded with spaces to the file's old length rather than truncated (on ext4 a truncating
 * rewrite forces a flush). Not synced: after a crash it is at worst stale or torn, and then
 * ignored. Never through a symlink. Returns the state line now on disk.
 *
 * A header written over a state line someone else replaced since names a SHA-256 that line does
 * not have: a reader then ignores the checkpoint (folds the log from the start), never trusts it.
 */
export const writeCheckpoint = (
  file: string,
  c: FoldCheckpoint,
  known: KnownState | null = null,
): KnownState => {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    if (known !== null && !stateIsDue(known, c)) {
      writeSync(fd, encodeHeader(c, summaryOf(c.state), known, known), 0, 'utf8');
      return known;
    }
    const { json, sha } = encodeState(c.state);
    const stored = { bytes: Buffer.byteLength(json), sha };
    const text = `${encodeHeader(c, summaryOf(c.state), c, stored)}${json}\n`;
    const bytes = Buffer.byteLength(text);
    const old = fstatSync(fd).size;
    const padded = old > bytes ? text + ' '.repeat(old - bytes) : text;
    writeSync(fd, padded, 0, 'utf8');
    return { ...position(c), ...stored };
  } finally {
    closeSync(fd);
  }
};

/**
 * The checkpoints this process has folded to, by log path: an appender's own, trusted as the
 * disk's are, with the state line it knows to be in the file on disk (null: none known).
 */
const inMemory = new Map<string, Readonly<{ checkpoint: FoldCheckpoint; onDisk: KnownState | null }>>();

export const rememberCheckpoint = (log: string, c: FoldCheckpoint, onDisk: KnownState | null): void => {
  inMemory.set(log, { checkpoint: c, onDisk });
};

export const recalledCheckpoint = (log: string): FoldCheckpoint | null =>
  inMemory.get(log)?.checkpoint ?? null;

/** The state line this process last wrote to, or read from, the log's checkpoint file. */
export const recalledOnDisk = (log: string): KnownState | null => inMemory.get(log)?.onDisk ?? null;

export const forgetCheckpoint = (log: string): void => {
  inMemory.delete(log);
};

/** Forget every checkpoint this process folded to: what a fresh process starts with (for in-process runs). */
export const forgetCheckpoints = (): void => {
  inMemory.clear();
};
