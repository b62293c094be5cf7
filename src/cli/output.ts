import type { ErrorCode } from '../errors.js';
import { describeErrno } from '../operations/errno.js';
import { failureOf } from '../operations/failure.js';
import { jsonText, plainText } from '../text/untrusted.js';
import type { Context, Io } from './context.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { nextLine } from './next-command.js';

/**
 * What a command produced: one JSON object for machines (an operation's result), text for people,
 * and its exit status. `workflowCommands`: the text is GitHub workflow commands clearance built
 * (`--format github`), each value in them already encoded for the runner.
 */
export type Outcome = Readonly<{
  json: Readonly<Record<string, unknown>>;
  text: string;
  exit?: number;
  workflowCommands?: boolean;
}>;

/**
 * The last line of defence at the sink, whatever a formatter forgot: no line of clearance's text
 * output holds `##[` (the runner's command form anywhere in a line; clearance never prints it),
 * and no line starts with `::` unless it is a workflow command clearance built. Every value in the
 * text was encoded where it was interpolated (`plainText`); this only makes a slip harmless.
 */
const defused = (text: string, workflowCommands: boolean): string => {
  const lines = text.replaceAll('##[', '##\\u005b').split('\n');
  return (workflowCommands ? lines : lines.map((l) => l.replace(/^(\s*):(?=:)/, '$1\\u003a'))).join('\n');
};

export const printOutcome = (ctx: Context, outcome: Outcome): number => {
  if (ctx.json) ctx.io.stdout.write(`${jsonText({ ok: true, ...outcome.json })}\n`);
  else if (outcome.text !== '') {
    const text = defused(outcome.text, outcome.workflowCommands === true);
    ctx.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  return outcome.exit ?? EXIT.ok;
};

/** A failure's message for a terminal or CI log: each of its lines encoded as a reviewer's string is. */
export const messageText = (message: string): string => message.split('\n').map(plainText).join('\n');

/**
 * Every failure, whatever its cause, ends here: under --json exactly one object on stdout
 * (`{"ok":false,"error":{code,message,details}}`), otherwise `error: …` on stderr. `failureOf` names
 * it; the exit status is the one table's. `dir` is the store.
 */
export const printFailure = (io: Io, json: boolean, raw: unknown, dir?: string): number => {
  const failure = failureOf(raw, dir);
  const code = failure.code as ErrorCode;
  // a reader that closed our output wants nothing more from us, as git does under `| head`
  if (failure.known && code === 'output-closed') return exitCodeFor(code);
  const exit = failure.known ? exitCodeFor(code) : EXIT.internal;
  if (json) {
    const details = Object.keys(failure.details).length > 0 ? { details: failure.details } : {};
    const next = failure.next === undefined ? {} : { next: failure.next };
    io.stdout.write(
      `${jsonText({ ok: false, error: { code, message: failure.message, ...details, ...next } })}\n`,
    );
  } else {
    const next = failure.next === undefined ? '' : `\n${nextLine(failure.next)}`;
    io.stderr.write(`error: ${messageText(failure.message)}${failure.known ? ` [${code}]` : ''}${next}\n`);
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
