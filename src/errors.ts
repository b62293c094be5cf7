import { GATE_REFUSALS } from '@clearance/fold/internal/events/gate-refusals.js';
import type { NextStep, Rejection, RejectionCode } from '@clearance/fold/internal/events/rejection.js';

export { GATE_REFUSALS, type GateRefusal } from '@clearance/fold/internal/events/gate-refusals.js';

/**
 * The operational failures of the I/O layers (store, handoff, input, revision). Rule refusals keep
 * their own `RejectionCode`. The CLI maps every code to an exit status in one table
 * (`src/cli/exit-codes.ts`); nothing matches on message text.
 */
export const OPERATIONAL_CODES = [
  // the store
  'invalid-run-id',
  'run-exists',
  'run-missing',
  'integrity',
  'seq-mismatch',
  'lock-timeout',
  'lock-compromised',
  'store-unavailable',
  'store-schema',
  'unsafe-path',
  // handoff (the completion protocol) and input
  'timeout',
  'incomplete',
  'malformed',
  'oversized',
  'report-exists',
  'invalid-budget',
  'aborted',
  // revision and gate
  'git-failed',
  'no-such-directory',
  'not-a-repository',
  'no-commit',
  'dirty-tree',
  'artifact-unreadable',
  'findings-md-invalid',
  // the gate's refusals
  ...GATE_REFUSALS,
  // signatures and attestations
  'key-unusable',
  'attestation-invalid',
  // the command line
  'usage',
  'input-unreadable',
  // the machine: Node's errno failures, named where the command line meets them (src/cli/errno.ts)
  'store-unusable',
  'no-space',
  'read-only',
  'permission-denied',
  'io-error',
  'output-closed',
  'output-unwritable',
] as const;

export type OperationalCode = (typeof OPERATIONAL_CODES)[number];
export type ErrorCode = OperationalCode | RejectionCode;

export class ClearanceError extends Error {
  readonly code: ErrorCode;
  /** machine-readable particulars (file, line, offset, waited ms, ...), printed under `--json` */
  readonly details: Readonly<Record<string, unknown>>;
  /** the step that would move things on instead, as data each door renders (never a command line) */
  readonly next: NextStep | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    next?: NextStep,
  ) {
    super(message);
    this.name = 'ClearanceError';
    this.code = code;
    this.details = details;
    this.next = next;
  }
}

/** A rule's refusal, raised at an I/O edge: the rejection's code, message and next step, its path in details. */
export const refusal = (r: Rejection): ClearanceError =>
  new ClearanceError(r.code, r.message, { path: r.path, ...r.details }, r.next);

export const isClearanceError = (e: unknown): e is ClearanceError => e instanceof ClearanceError;
