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

/** A checkpoint without its state: what a listing of every run needs. */
export type CheckpointHeader = Omit<FoldCheckpoint, 'state'> & Readonly<{ summary: RunSummary }>;

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

// The file format's tag; it keeps its first name, since checkpoints already written carry it.
const FORMAT = 'clearance.fold-cache';
const VERSION = 1;

/**
 * Two lines. The header: its own SHA-256, a space, then JSON (format, versions, the log file and
 * position, the run's summary, the state line's SHA-256). Then the state as JSON. The state is
 * serialised generically, so a changed `RunState` only needs its shape version bumped; the hashes
 * catch a torn or half-rewritten file, and let a listing trust the header without the state.
 */
export const encodeCheckpoint = (c: FoldCheckpoint): string => {
  const { json: state, sha: stateSha } = encodeState(c.state);
  const header = JSON.stringify({
    format: FORMAT,
    v: VERSION,
    shape: STATE_SHAPE_VERSION,
    ino: c.file.ino,
    ctimeMs: c.file.ctimeMs,
    size: c.size,
    seq: c.seq,
    hash: c.hash,
    lineStart: c.lineStart,
    events: c.events,
    refused: c.refused,
    summary: summaryOf(c.state),
    stateSha,
  });
  return `${sha256Hex(header)} ${header}\n${state}\n`;
};

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

type Header = CheckpointHeader & Readonly<{ stateSha: string }>;

const decodeHeader = (line: string): Header | null => {
  const header = line.slice(65);
  if (line[64] !== ' ' || sha256Hex(header) !== line.slice(0, 64)) return null;
  try {
    const h = JSON.parse(header) as Record<string, unknown>;
    if (h.format !== FORMAT || h.v !== VERSION || h.shape !== STATE_SHAPE_VERSION) return null;
    if (![h.ino, h.size, h.seq, h.lineStart, h.events, h.refused].every(isCount)) return null;
    if (typeof h.ctimeMs !== 'number' || typeof h.hash !== 'string' || typeof h.stateSha !== 'string')
      return null;
    const summary = h.summary as RunSummary;
    return {
      file: { ino: h.ino as number, ctimeMs: h.ctimeMs },
      size: h.size as number,
      seq: h.seq as number,
      hash: h.hash,
      lineStart: h.lineStart as number,
      events: h.events as number,
      refused: h.refused as number,
      summary: { status: summary.status, round: summary.round, maxRounds: summary.maxRounds },
      stateSha: h.stateSha,
    };
  } catch {
    return null;
  }
};

export const decodeCheckpoint = (text: string): FoldCheckpoint | null => {
  const end = text.indexOf('\n');
  const stateEnd = text.indexOf('\n', end + 1);
  if (end === -1 || stateEnd === -1) return null;
  const header = decodeHeader(text.slice(0, end));
  if (header === null) return null;
  const state = decodeState(text.slice(end + 1, stateEnd), header.stateSha);
  if (state === null) return null;
  const { summary: _, stateSha: __, ...position } = header;
  return { ...position, state };
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

/** Longer than any header (about 500 bytes), so a header is read in one `read`. */
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
export const readCheckpoint = (file: string): FoldCheckpoint | null =>
  readNoFollow(file, (fd) => decodeCheckpoint(readFileSync(fd, 'utf8')));

/**
 * Rewrite the checkpoint in place, padded with spaces to the file's old length rather than
 * truncated (on ext4 a truncating rewrite forces a flush). Not synced: after a crash it is at
 * worst stale or torn, and then ignored. Never through a symlink.
 */
export const writeCheckpoint = (file: string, c: FoldCheckpoint): void => {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    const text = encodeCheckpoint(c);
    const bytes = Buffer.byteLength(text);
    const old = fstatSync(fd).size;
    const padded = old > bytes ? text + ' '.repeat(old - bytes) : text;
    writeSync(fd, padded, 0, 'utf8');
  } finally {
    closeSync(fd);
  }
};

/** The checkpoints this process has folded to, by log path: an appender's own, trusted as the disk's are. */
const inMemory = new Map<string, FoldCheckpoint>();

export const rememberCheckpoint = (log: string, c: FoldCheckpoint): void => {
  inMemory.set(log, c);
};

export const recalledCheckpoint = (log: string): FoldCheckpoint | null => inMemory.get(log) ?? null;

export const forgetCheckpoint = (log: string): void => {
  inMemory.delete(log);
};

/** Forget every checkpoint this process folded to: what a fresh process starts with (for in-process runs). */
export const forgetCheckpoints = (): void => {
  inMemory.clear();
};
