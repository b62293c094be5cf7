import { readSync } from 'node:fs';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import type { RunState } from '@clearance/fold/internal/projections/state.js';
import type { FoldCheckpoint, LogEnd, LogFile, StoredCheckpoint } from './checkpoint.js';
import { type Head, LOG_START, type LogSummary, type ScanStart } from './log-format.js';
import { chainedLinesDecider } from './node-decider.js';
import { scanAndStep } from './scan.js';

/** A log folded to its end: what the scan found, the state, and how many events it holds. */
export type CaughtUp = LogSummary &
  Readonly<{
    state: RunState;
    events: number;
    refused: number;
    /** whether a checkpoint was used (only the bytes after it were read) */
    fromCheckpoint: boolean;
  }>;

/** Is the log still the file the checkpoint folded, unwritten since? (Its last line is checked apart.) */
export const matchesFile = (
  c: Pick<FoldCheckpoint, 'seq' | 'size' | 'file'>,
  file: LogFile & Readonly<{ size: number }>,
): boolean => c.seq > 0 && c.size === file.size && c.file.ino === file.ino && c.file.ctimeMs === file.ctimeMs;

/** One read of a run log's bytes: where in the file it started, and how many bytes it read. */
export type LogRead = Readonly<{ position: number; length: number }>;

let logReadObserver: ((read: LogRead) => void) | null = null;

/**
 * A test seam: hand every read of a log's bytes (`readAt` here, `readRun`'s whole-file read) to
 * `observe` until the returned function is called, so a test can count what a command reads
 * (test/cli/record-once.test.ts). Nothing observes in production.
 */
export const observeLogReads = (observe: (read: LogRead) => void): (() => void) => {
  const before = logReadObserver;
  logReadObserver = observe;
  return () => {
    logReadObserver = before;
  };
};

/** Say a log was read (for `observeLogReads`). */
export const noteLogRead = (position: number, length: number): void =>
  logReadObserver?.({ position, length });

/** Read `length` bytes of an open log from `position`, all of them. */
export const readAt = (fd: number, position: number, length: number): Buffer => {
  const bytes = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  noteLogRead(position, done);
  return done === length ? bytes : bytes.subarray(0, done);
};

/** Does the line at `lineStart` of the first `size` bytes still hash to `hash`? */
export const lastLineHolds = (fd: number, size: number, lineStart: number, hash: string): boolean => {
  if (size === 0) return lineStart === 0;
  const line = readAt(fd, lineStart, size - lineStart);
  return (
    line.length === size - lineStart &&
    line[line.length - 1] === 0x0a &&
    sha256Hex(line.subarray(0, -1)) === hash
  );
};

/**
 * Where a fold resumes: a state folded to a line of the log (`at`), and the end of the log as the
 * appender that kept it left it (`end`, at or after `at`). In memory both are the same; the file
 * beside the log may keep its state a few lines behind its end (`StoredCheckpoint`).
 */
export type Resume = Readonly<{ end: LogEnd; at: FoldCheckpoint }>;

/** An appender's own checkpoint, in memory: its state is at the end. */
export const resumeAt = (c: FoldCheckpoint): Resume => ({ end: c, at: c });

export const resumeFrom = (stored: StoredCheckpoint | null): Resume | null =>
  stored === null ? null : { end: stored.end, at: stored.at };

/**
 * Fold the log open at `fd` to its end. From `from` when it matches the log (the same file not
 * written since its appender left it, and the line its state was folded to still hashes as
 * recorded): then only the lines after that one are read, checked against the chain and folded,
 * and they must end where the appender said. Otherwise from the start, with the head anchor
 * `head()` checked.
 */
export const catchUp = (
  fd: number,
  file: LogFile & Readonly<{ size: number }>,
  from: Resume | null,
  head: () => Head | null,
): CaughtUp => {
  const { size } = file;
  if (from !== null && matchesFile(from.end, file)) {
    const { at, end } = from;
    const bytes = readAt(fd, at.lineStart, size - at.lineStart);
    const known = at.size - at.lineStart;
    if (
      bytes.length === size - at.lineStart &&
      bytes[known - 1] === 0x0a &&
      sha256Hex(bytes.subarray(0, known - 1)) === at.hash
    ) {
      const caught = foldFrom(bytes.subarray(known), null, at, {
        offset: at.size,
        seq: at.seq,
        hash: at.hash,
        lineStart: at.lineStart,
      });
      // a damaged line after the state is reported where it is; clean lines end at the appender's end
      if (caught.issue !== null || (caught.lastSeq === end.seq && caught.lastHash === end.hash))
        return caught;
    }
  }
  return foldFrom(readAt(fd, 0, size), head(), null, LOG_START);
};

/**
 * Check and fold `bytes`, the log from `from` on: from a checkpoint's state and counts, or from
 * the initial state (then `from` is the log's start). Any store's catch-up ends here: each line is
 * checked against the chain before its event is folded, so the rules take a carried report's
 * `reportSha` as the line records it (`chainedLinesDecider`).
 */
export const foldFrom = (
  bytes: Buffer | string,
  head: Head | null,
  checkpoint: Pick<FoldCheckpoint, 'state' | 'events' | 'refused'> | null,
  from: ScanStart,
): CaughtUp => {
  return {
    ...scanAndStep(chainedLinesDecider.evolve, bytes, head, checkpoint, from),
    fromCheckpoint: checkpoint !== null,
  };
};

/**
 * The checkpoint a caught-up log gives, or null when the log is damaged there. One at seq 0 (a log
 * with no complete line) serves its own append only: `matchesFile` never takes it from memory or disk.
 */
export const checkpointOf = (c: CaughtUp, file: LogFile): FoldCheckpoint | null =>
  c.issue !== null
    ? null
    : {
        file: { ino: file.ino, ctimeMs: file.ctimeMs },
        size: c.size,
        seq: c.lastSeq,
        hash: c.lastHash,
        lineStart: c.lastLineStart,
        events: c.events,
        refused: c.refused,
        state: c.state,
      };
