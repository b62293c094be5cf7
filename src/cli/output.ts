import { isClearanceError } from '../errors.js';
import type { Context, Io } from './context.js';
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
 * (`{"ok":false,"error":{code,message,details}}`), otherwise `error: …` on stderr.
 */
export const printFailure = (io: Io, json: boolean, error: unknown): number => {
  const known = isClearanceError(error);
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
