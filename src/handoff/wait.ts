import { basename, dirname, resolve } from 'node:path';
import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import { ClearanceError } from '../errors.js';
import { type Deadline, startDeadline } from '../input/deadline.js';
import { type BoundedRead, readBounded } from '../input/read-bounded.js';
import { type ExpectedReport, judgeReport, type SeenBinding } from './judge.js';
import { resolveBudget, type WaitOptions } from './wait-budget.js';
import { type Notifier, openWakeOn, watchDirectory } from './wake.js';

/** A complete report bound to the expected run, round and input, and what it took to get it. */
export type CollectedReport = Readonly<{ report: RoundReport; bytes: number; waitedMs: number }>;

type FailureCode = 'timeout' | 'incomplete' | 'malformed' | 'oversized' | 'aborted';

const describeExpected = (e: ExpectedReport): string =>
  `run ${JSON.stringify(e.runId)}, round ${e.round}, input ${JSON.stringify(e.inputSha)}`;

const describeSeen = (s: SeenBinding): string =>
  `run ${JSON.stringify(s.runId) ?? 'missing'}, round ${JSON.stringify(s.round) ?? 'missing'}, ` +
  `input ${JSON.stringify(s.inputSha) ?? 'missing'}`;

/**
 * Wait for the complete report of `expected` at `path`, as published by `publishReport` (a rename
 * into place). Resolves with the validated report; otherwise rejects with a `ClearanceError`:
 *
 * - `timeout`: no answer before the deadline. The deadline is fixed once at the call, from the
 *   monotonic clock; nothing a writer does can extend it, and an answer that arrives after it is
 *   no answer (there is no settling phase or grace read).
 * - `incomplete`, `malformed`: a matching report that is not complete or fails the report schema,
 *   or a file that is not a JSON object (see `judgeReport`), fails at once.
 * - `oversized`: a file larger than `maxBytes` fails at once, whoever it belongs to: its binding
 *   cannot be checked without reading past the bound.
 * - `invalid-budget`: an option is not a positive integer (nothing is read).
 * - `aborted`: `options.signal` aborted.
 *
 * A missing file, or a report of another run, round or input, means: keep waiting.
 * Other I/O errors (a permission refused) are thrown as Node raised them.
 */
export const waitForReport = (
  path: string,
  expected: ExpectedReport,
  options: WaitOptions = {},
): Promise<CollectedReport> => {
  const target = resolve(path);
  return awaitReport(
    {
      where: target,
      look: (maxBytes, deadline) => readBounded(target, maxBytes, deadline),
      notifier: watchDirectory(dirname(target), basename(target)),
    },
    expected,
    options,
  );
};

/** Where a report is published and how to look at it: a file path, or a store's report table. */
export type ReportSource = Readonly<{
  /** for messages: a path, or a store without credentials */
  where: string;
  /** one bounded look: never more than `maxBytes + 1` bytes, checking the deadline */
  look: (maxBytes: number, deadline: Deadline) => Promise<BoundedRead>;
  /** what wakes the wait before its next poll */
  notifier: Notifier;
}>;

/** The wait itself, over any source: one deadline, bounded looks, a wake with polling behind it. */
export const awaitReport = async (
  source: ReportSource,
  expected: ExpectedReport,
  options: WaitOptions = {},
): Promise<CollectedReport> => {
  const budget = resolveBudget(options);
  // Fixed before the first await: the caller's clock and ours start together.
  const deadline = startDeadline(budget.timeoutMs);
  const target = source.where;

  let lastSeen: SeenBinding | undefined;
  let ignored = 0;
  const failure = (code: FailureCode, what: string, extra: Record<string, unknown> = {}): ClearanceError => {
    const waitedMs = Math.round(deadline.waited());
    return new ClearanceError(
      code,
      `${what} (waiting for the report of ${describeExpected(expected)} at ${target}; waited ${waitedMs} ms)`,
      { path: target, expected: { ...expected }, waitedMs, ...extra },
    );
  };
  const timedOut = (): ClearanceError => {
    const last =
      lastSeen === undefined
        ? 'no report for it appeared'
        : `the file last held a report of ${describeSeen(lastSeen)}, which was ignored`;
    return failure('timeout', `no complete report within ${budget.timeoutMs} ms: ${last}`, {
      timeoutMs: budget.timeoutMs,
      ignored,
      ...(lastSeen === undefined ? {} : { lastSeen: { ...lastSeen } }),
    });
  };
  const aborted = (signal: AbortSignal): ClearanceError => {
    const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
    return failure('aborted', `the wait was aborted (${reason})`, { reason });
  };

  if (budget.signal?.aborted) throw aborted(budget.signal);
  const wake = openWakeOn(budget.watch ? source.notifier : null, budget.signal);
  try {
    for (;;) {
      const outcome = await lookOnce(source, expected, budget.maxBytes, deadline);
      if (budget.signal?.aborted) throw aborted(budget.signal);
      // The final acceptance is checked against the same deadline: a report read or judged after
      // it is a late answer, and a late answer is a timeout.
      if (outcome.kind === 'expired' || deadline.expired()) throw timedOut();
      switch (outcome.kind) {
        case 'accept':
          return { report: outcome.report, bytes: outcome.bytes, waitedMs: deadline.waited() };
        case 'fail':
          throw failure(outcome.code, outcome.what, outcome.extra);
        case 'ignore':
          lastSeen = outcome.seen;
          ignored += 1;
          break;
        case 'missing':
          break;
      }
      await wake.sleep(Math.min(budget.pollMs, Math.ceil(deadline.remaining())));
      if (budget.signal?.aborted) throw aborted(budget.signal);
    }
  } finally {
    wake.close();
  }
};

type Look =
  | Readonly<{ kind: 'missing' | 'expired' }>
  | Readonly<{ kind: 'ignore'; seen: SeenBinding }>
  | Readonly<{ kind: 'accept'; report: RoundReport; bytes: number }>
  | Readonly<{ kind: 'fail'; code: FailureCode; what: string; extra: Record<string, unknown> }>;

/** One bounded read of the file and what it means. */
const lookOnce = async (
  source: ReportSource,
  expected: ExpectedReport,
  maxBytes: number,
  deadline: Deadline,
): Promise<Look> => {
  const read = await source.look(maxBytes, deadline);
  switch (read.kind) {
    case 'missing':
    case 'expired':
      return read;
    case 'not-a-file':
      return { kind: 'fail', code: 'malformed', what: `the report path is ${read.what}`, extra: {} };
    case 'oversized':
      return {
        kind: 'fail',
        code: 'oversized',
        what: `the report is larger than maxBytes ${maxBytes} (at least ${read.bytes} bytes)`,
        extra: { maxBytes, bytes: read.bytes, bytesRead: read.bytesRead },
      };
    case 'read': {
      const judged = judgeReport(read.bytes, expected);
      if (judged.kind === 'fail') {
        return { kind: 'fail', code: judged.code, what: judged.reason, extra: { bytes: read.bytes.length } };
      }
      return judged.kind === 'accept'
        ? { kind: 'accept', report: judged.report, bytes: read.bytes.length }
        : judged;
    }
  }
};
