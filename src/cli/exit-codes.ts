import type { ErrorCode } from '../errors.js';
import { REJECTION_CODES } from '../events/rejection.js';

/** The exit statuses, as DESIGN.md "CLI contract" defines them. */
export const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  timeout: 3,
  completion: 4,
  lock: 5,
  internal: 70,
  /** sysexits.h EX_CANTCREAT: an output file could not be written */
  cantCreate: 73,
} as const;

const OPERATIONAL: Readonly<Record<Exclude<ErrorCode, (typeof REJECTION_CODES)[number]>, number>> = {
  'invalid-run-id': EXIT.usage,
  'run-exists': EXIT.refused,
  'run-missing': EXIT.refused,
  integrity: EXIT.refused,
  'seq-mismatch': EXIT.refused,
  'lock-timeout': EXIT.lock,
  'lock-compromised': EXIT.lock,
  'unsafe-path': EXIT.refused,
  timeout: EXIT.timeout,
  incomplete: EXIT.completion,
  malformed: EXIT.completion,
  oversized: EXIT.completion,
  'invalid-budget': EXIT.usage,
  aborted: EXIT.internal,
  'git-failed': EXIT.refused,
  'not-a-repository': EXIT.usage,
  'dirty-tree': EXIT.refused,
  'artifact-unreadable': EXIT.usage,
  'findings-md-invalid': EXIT.refused,
  'no-review': EXIT.refused,
  'not-converged': EXIT.refused,
  unverifiable: EXIT.refused,
  'artifact-changed': EXIT.refused,
  'head-moved': EXIT.refused,
  usage: EXIT.usage,
  'input-unreadable': EXIT.usage,
  'output-unwritable': EXIT.cantCreate,
};

/** The one table from an error code to an exit status: every rule's refusal is 1. */
export const exitCodeFor = (code: ErrorCode): number =>
  (REJECTION_CODES as ReadonlyArray<string>).includes(code)
    ? EXIT.refused
    : (OPERATIONAL[code as keyof typeof OPERATIONAL] ?? EXIT.internal);
