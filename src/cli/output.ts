import { isClearanceError } from '../errors.js';
import type { Context, Io } from './context.js';
import { describeErrno, describeLockInTheWay } from './errno.js';
import { EXIT, exitCodeFor } from './exit-codes.js';

/** What a command produced: one JSON object for machines, text for people, and its exit status. */
export type Outcome = Readonly<{ json: Readonly<Record<string, unknown>>; text: string; exit?: number }>;

export const printOutcome = (ctx: Context, outcome: Outcome): number => {
  if (ctx.json)
    ctx.io.stdout.write(`${JSON.stringify({ ok: (outcome.exit ?? 0) === 0, ...outcome.json })}\n`);
  else if (outcome.text !== '')
    ctx.io.stdout.write(outcome.text.endsWith('\n') ? outcome.text : `${outcome.text}\n`);
  return outcome.exit ?? EXIT.ok;
};

/**
 * Every failure, whatever its cause, ends here: under --json exactly one object on stdout
 * (`{"ok":false,"error":{code,message,details}}`), otherwise `error: …` on stderr. An I/O failure
 * the machine caused (a full disk, a read-only store, `--dir` naming a file) is named here, once,
 * with its own code and exit status; only what is left is an internal error. `dir` is the store.
 */
export const printFailure = (io: Io, json: boolean, raw: unknown, dir?: string): number => {
  const error = describeLockInTheWay(raw) ?? describeErrno(raw, dir) ?? raw;
  const known = isClearanceError(error);
  // a reader that closed our output wants nothing more from us, as git does under `| head`
  if (known && error.code === 'output-closed') return exitCodeFor(error.code);
  const code = known ? error.code : 'internal';
  const message = known
    ? error.message
    : `internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  const exit = known ? exitCodeFor(error.code) : EXIT.internal;
  if (json) {
    const details = known && Object.keys(error.details).length > 0 ? { details: error.details } : {};
    io.stdout.write(`${JSON.stringify({ ok: false, error: { code, message, ...details } })}\n`);
  } else {
    io.stderr.write(`error: ${message}${known ? ` [${code}]` : ''}\n`);
  }
  return exit;
};

/**
 * A process stream that fails after the command wrote to it. A reader that went away
 * (`clearance replay --json | head -c 10`) reports EPIPE as an 'error' event, which would otherwise
 * crash the process with a stack trace: end quietly instead, with 141 (128 + SIGPIPE, what a shell
 * shows for git in the same pipe). Any other failure (stdout redirected to a full disk) is told
 * on `tell` and ends with its own status.
 */
export const watchOutput = (
  stream: Readonly<{ on: (event: 'error', listener: (e: Error) => void) => unknown }>,
  exit: (status: number) => void,
  tell: (message: string) => void,
): void => {
  stream.on('error', (e) => {
    const described = describeErrno(e, undefined);
    if (described === undefined) {
      tell(`error: cannot write the output: ${e.message} [internal]\n`);
      exit(EXIT.internal);
      return;
    }
    if (described.code !== 'output-closed')
      tell(`error: cannot write the output: ${described.message} [${described.code}]\n`);
    exit(exitCodeFor(described.code));
  });
};
