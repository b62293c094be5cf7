import { jsonText } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { failureOf } from '../operations/failure.js';
import { writeOutputFile } from '../operations/write-output.js';
import { type Context, contextOf, type Io } from './context.js';
import { failureJson, type Outcome, printFailure, printOutcome } from './output.js';
import type { OutputFormat } from './output-format.js';

// The exit status each run's action settled on, kept per program (not in a module global) so that
// two runs in one process, concurrent or nested, never read each other's status.
const settled = new WeakMap<Command, number>();

const rootOf = (command: Command): Command => {
  let root = command;
  while (root.parent !== null) root = root.parent;
  return root;
};

/** Record the exit status a command under `command`'s program settled on. */
export const settle = (command: Command, status: number): void => {
  settled.set(rootOf(command), status);
};

/** The exit status the action run under `program` settled on (0 when none ran: help, version). */
export const exitStatusOf = (program: Command): number => settled.get(program) ?? 0;

type GlobalFlags = Readonly<{ json?: boolean; format?: OutputFormat; jsonFile?: string }>;

/**
 * Wrap a command's work: build its context from the global options, run it, write `--json-file`,
 * print its outcome or its failure, and record the exit status. Commands stay thin: parse, call
 * the library, print.
 */
export const action =
  <A extends unknown[]>(io: Io, work: (ctx: Context, ...args: A) => Promise<Outcome>) =>
  async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    const flags = command.optsWithGlobals() as GlobalFlags;
    const json = flags.json === true;
    let ctx: Context | undefined;
    let outcome: Outcome | undefined;
    let failure: unknown;
    try {
      ctx = await contextOf(command, io);
      outcome = await work(ctx, ...(params.slice(0, -1) as A));
    } catch (error) {
      failure = error;
    }
    const dir = ctx?.store.kind === 'file' ? ctx.dir : undefined;
    if (flags.jsonFile !== undefined) {
      // the object --json prints, success or failure alike, beside the text or workflow commands
      const object =
        outcome === undefined || outcome.refused !== undefined
          ? failureJson(failureOf(outcome?.refused ?? failure, dir))
          : { ok: true, ...outcome.json };
      try {
        await writeOutputFile(
          flags.jsonFile,
          `${jsonText(object)}\n`,
          'write',
          'the JSON result (--json-file)',
        );
      } catch (error) {
        if (outcome === undefined) printFailure(io, json, error, dir, flags.format);
        else failure = error;
      }
    }
    const status =
      ctx !== undefined && failure === undefined && outcome !== undefined
        ? printOutcome(ctx, outcome)
        : printFailure(io, json, failure, dir, flags.format);
    // a database connection is released whatever happened; closing cannot change the outcome
    await ctx?.store.close().catch(() => undefined);
    settle(command, status);
  };

/** A `--help` footer with examples, as git and cargo print them. */
export const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
