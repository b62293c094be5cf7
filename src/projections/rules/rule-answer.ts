import * as E from '#either';
import {
  type NextStep,
  type Path,
  type Rejection,
  type RejectionCode,
  rejection,
} from '../../events/rejection.js';

/** A rule's answer: `Right` when it holds, `Left` naming what failed and why. */
export type Check = E.Either<Rejection, void>;

export const ok: Check = E.right(undefined);

export const fail = (
  code: RejectionCode,
  message: string,
  path: Path = [],
  details?: Readonly<Record<string, unknown>>,
  next?: NextStep,
): E.Either<Rejection, never> => E.left(rejection(code, message, path, details, next));

/** Run rules in order and stop at the first that fails: a refusal always names one cause. */
export const firstFailure = (...checks: ReadonlyArray<() => Check>): Check => {
  for (const check of checks) {
    const result = check();
    if (E.isLeft(result)) return result;
  }
  return ok;
};

export const isBlank = (text: string): boolean => text.trim() === '';

export const shortId = (id: string): string => id.slice(0, 12);
