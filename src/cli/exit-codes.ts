import { REJECTION_CODES } from '@clearance/fold/internal/events/rejection.js';
import { type ErrorCode, GATE_REFUSALS, type GateRefusal } from '../errors.js';

/**
 * The exit statuses. 0–5 are clearance's own; the environment's failures take their numbers from
 * BSD's sysexits.h (73 EX_CANTCREAT, 74 EX_IOERR, 77 EX_NOPERM), and 70 (EX_SOFTWARE) is kept for
 * bugs alone: nothing a user or the machine does may end there.
 */
export const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  timeout: 3,
  completion: 4,
  lock: 5,
  /** sysexits.h EX_NOINPUT: an input named does not exist (a directory, a repository's first commit) */
  noInput: 66,
  /** sysexits.h EX_UNAVAILABLE: the store's server cannot be reached or cannot serve */
  unavailable: 69,
  internal: 70,
  /** sysexits.h EX_CANTCREAT: an output file, or the store, cannot be written */
  cantCreate: 73,
  ioError: 74,
  noPermission: 77,
  /** sysexits.h EX_CONFIG: the store's schema is missing, older or newer than this clearance */
  config: 78,
  interrupted: 130,
  outputClosed: 141,
} as const;

/**
 * What each exit status means, for `--help` and `clearance help exit-codes`: one entry
 * for every status in EXIT (the compiler holds it so), and every status the code returns is one of
 * EXIT's (the table below uses nothing else), so the list is every status there is.
 */
const MEANING: Readonly<Record<keyof typeof EXIT, string>> = {
  ok: 'done (for gate: the review is clear; for may: allowed)',
  refused: 'refused by a rule, nothing was written (for may: not allowed)',
  usage: 'usage: a flag, an argument or an input file is wrong',
  timeout: 'a wait timed out',
  completion: 'a waited-for report is malformed or incomplete, or an input is larger than --max-bytes',
  lock: "the run's lock was not acquired",
  noInput:
    'an input named does not exist: no such directory, or a repository with no commit yet (sysexits EX_NOINPUT)',
  unavailable: "the store's server cannot be reached or cannot serve (sysexits EX_UNAVAILABLE)",
  internal: 'internal error: a bug, please report it',
  cantCreate: 'cannot write: the store (--dir not a directory, read-only) or an output file',
  ioError: 'I/O error: the disk is full, or the device failed',
  noPermission: 'permission denied',
  config: "the store's schema is missing or another version: run clearance store init (EX_CONFIG)",
  interrupted: 'interrupted (Ctrl-C during a wait)',
  outputClosed: 'standard output was closed by its reader (as git: `| head`)',
};

export const EXIT_MEANINGS: ReadonlyArray<readonly [number, string]> = (
  Object.keys(EXIT) as Array<keyof typeof EXIT>
).map((name) => [EXIT[name], MEANING[name]] as const);

const GATE_EXITS = Object.fromEntries(GATE_REFUSALS.map((code) => [code, EXIT.refused])) as Record<
  GateRefusal,
  typeof EXIT.refused
>;

type ExitStatus = (typeof EXIT)[keyof typeof EXIT];

const OPERATIONAL: Readonly<Record<Exclude<ErrorCode, (typeof REJECTION_CODES)[number]>, ExitStatus>> = {
  'invalid-run-id': EXIT.usage,
  'run-exists': EXIT.refused,
  'run-missing': EXIT.refused,
  integrity: EXIT.refused,
  'seq-mismatch': EXIT.refused,
  'lock-timeout': EXIT.lock,
  'lock-compromised': EXIT.lock,
  'store-unavailable': EXIT.unavailable,
  'store-schema': EXIT.config,
  'unsafe-path': EXIT.refused,
  timeout: EXIT.timeout,
  incomplete: EXIT.completion,
  malformed: EXIT.completion,
  oversized: EXIT.completion,
  'report-exists': EXIT.refused,
  'invalid-budget': EXIT.usage,
  aborted: EXIT.interrupted,
  'git-failed': EXIT.refused,
  'no-such-directory': EXIT.noInput,
  'not-a-repository': EXIT.usage,
  'no-commit': EXIT.noInput,
  'dirty-tree': EXIT.refused,
  'artifact-unreadable': EXIT.usage,
  'findings-md-invalid': EXIT.refused,
  ...GATE_EXITS,
  'key-unusable': EXIT.usage,
  'attestation-invalid': EXIT.refused,
  usage: EXIT.usage,
  'input-unreadable': EXIT.usage,
  'store-unusable': EXIT.cantCreate,
  'read-only': EXIT.cantCreate,
  'no-space': EXIT.ioError,
  'io-error': EXIT.ioError,
  'permission-denied': EXIT.noPermission,
  'output-closed': EXIT.outputClosed,
  'output-unwritable': EXIT.cantCreate,
};

/** The one table from an error code to an exit status: every rule's refusal is 1. */
export const exitCodeFor = (code: ErrorCode): number =>
  (REJECTION_CODES as ReadonlyArray<string>).includes(code)
    ? EXIT.refused
    : (OPERATIONAL[code as keyof typeof OPERATIONAL] ?? EXIT.internal);

/** The exit table as `--help` prints it. */
export const exitTable = (): string =>
  EXIT_MEANINGS.map(([status, meaning]) => `  ${String(status).padStart(3)}  ${meaning}`).join('\n');
