import { randomBytes } from 'node:crypto';
import type { WorkflowCommandLines } from '@clearance/fold/internal/render/github.js';
import { commandsStopped } from '@clearance/fold/internal/render/stop-commands.js';
import { jsonText, plainText } from '@clearance/fold/internal/text/untrusted.js';
import type { ErrorCode } from '../errors.js';
import { describeErrno } from '../operations/errno.js';
import { failureOf } from '../operations/failure.js';
import type { Context, Io } from './context.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { nextLine } from './next-command.js';
import type { OutputFormat } from './output-format.js';

/**
 * What a command produced: one JSON object for machines (an operation's result), text for people,
 * and its exit status. `annotations`: the workflow commands clearance built for `--format github`
 * (`status`, `findings`, `gate`), each value in them already encoded for the runner.
 */
export type Outcome = Readonly<{
  json: Readonly<Record<string, unknown>>;
  text: string;
  exit?: number;
  annotations?: WorkflowCommandLines;
  /** a refusal shown as an outcome (`gate --format github`): its JSON is the failure's */
  refused?: unknown;
}>;

/**
 * The last line of defence at the sink, whatever a formatter forgot: no line of clearance's text
 * holds `##[` (the runner's command form anywhere in a line; clearance never prints it), and no
 * line starts with `::`. Every value in the text was encoded where it was interpolated
 * (`plainText`); this only makes a slip harmless. Annotations never pass here: the runner reads a
 * `::error …::` line as that command alone, never looking for `##[` in it, so their values carry
 * only the runner's own escaping and name the file and say the message they were given.
 */
const defused = (text: string): string =>
  text
    .replaceAll('##[', '##\\u005b')
    .split('\n')
    .map((l) => l.replace(/^(\s*):(?=:)/, '$1\\u003a'))
    .join('\n');

/** A fresh stop token for each region: 128 random bits, nothing a reviewer's text can lead to. */
const stopToken = (): string => randomBytes(16).toString('hex');

/**
 * Text as a GitHub Actions step prints it (`--format github`): clearance's own annotations first,
 * where the runner acts on them, then every other line (each may hold a reviewer's text) where the
 * runner acts on nothing: between `::stop-commands::<token>` and `::<token>::`.
 */
export const githubText = (text: string, annotations?: WorkflowCommandLines): string => {
  const shown = [...(annotations?.notShown ?? []), ...(text === '' ? [] : [defused(text)])].join('\n');
  return [
    ...(annotations?.commands ?? []),
    ...(shown === '' ? [] : [commandsStopped(stopToken(), shown)]),
  ].join('\n');
};

export const printOutcome = (ctx: Context, outcome: Outcome): number => {
  if (ctx.json) ctx.io.stdout.write(`${jsonText({ ok: true, ...outcome.json })}\n`);
  else {
    const text =
      ctx.format === 'github'
        ? githubText(outcome.text.replace(/\n$/, ''), outcome.annotations)
        : defused(outcome.text);
    if (text !== '') ctx.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  return outcome.exit ?? EXIT.ok;
};

/** A failure's message for a terminal or CI log: each of its lines encoded as a reviewer's string is. */
export const messageText = (message: string): string => message.split('\n').map(plainText).join('\n');

/**
 * Every failure, whatever its cause, ends here: under --json exactly one object on stdout
 * (`{"ok":false,"error":{code,message,details}}`), otherwise `error: …` on stderr (under
 * `--format github`, where the runner acts on no command in it). `failureOf` names it; the exit
 * status is the one table's. `dir` is the store.
 */
export const printFailure = (
  io: Io,
  json: boolean,
  raw: unknown,
  dir?: string,
  format: OutputFormat = 'text',
): number => {
  const failure = failureOf(raw, dir);
  const code = failure.code as ErrorCode;
  // a reader that closed our output wants nothing more from us, as git does under `| head`
  if (failure.known && code === 'output-closed') return exitCodeFor(code);
  const exit = failure.known ? exitCodeFor(code) : EXIT.internal;
  if (json) io.stdout.write(`${jsonText(failureJson(failure))}\n`);
  else {
    const next = failure.next === undefined ? '' : `\n${nextLine(failure.next)}`;
    const said = `error: ${messageText(failure.message)}${failure.known ? ` [${code}]` : ''}${next}`;
    io.stderr.write(`${format === 'github' ? githubText(said) : said}\n`);
  }
  return exit;
};

/** The one JSON object a failure is under --json (and in --json-file). */
export const failureJson = (failure: ReturnType<typeof failureOf>): Readonly<Record<string, unknown>> => {
  const details = Object.keys(failure.details).length > 0 ? { details: failure.details } : {};
  const next = failure.next === undefined ? {} : { next: failure.next };
  return { ok: false, error: { code: failure.code, message: failure.message, ...details, ...next } };
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
