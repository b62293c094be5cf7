import type { NextStep } from '@clearance/fold/internal/events/next-step.js';
import { isClearanceError } from '../errors.js';
import { describeErrno, describeLockInTheWay } from './errno.js';

/** A failure as both front doors say it: its code, its message and its particulars. */
export type Failure = Readonly<{
  code: string;
  message: string;
  details: Readonly<Record<string, unknown>>;
  /** false: nothing named it, so it is a bug (the CLI's exit 70, "internal") */
  known: boolean;
  /** what would move things on instead, as data each door says in its own words */
  next?: NextStep;
}>;

/**
 * Every failure, whatever its cause, named once: a `ClearanceError` as it is, an I/O failure the
 * machine caused (a full disk, a read-only store, a store path that is a file, a lock in the way) by
 * its own code and the fix; only what is left is internal. `dir` is the file store's directory.
 */
export const failureOf = (raw: unknown, dir?: string): Failure => {
  const error = describeLockInTheWay(raw) ?? describeErrno(raw, dir) ?? raw;
  if (isClearanceError(error))
    return {
      code: error.code,
      message: error.message,
      details: error.details,
      known: true,
      ...(error.next === undefined ? {} : { next: error.next }),
    };
  return {
    code: 'internal',
    message: `internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    details: {},
    known: false,
  };
};
