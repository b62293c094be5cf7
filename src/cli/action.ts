import type { Command } from 'commander';
import { type Context, contextOf, type Io } from './context.js';
import { type Outcome, printFailure, printOutcome } from './output.js';

/** The exit status the last action settled on; `run` returns it. */
export const exitStatus = { value: 0 };

/**
 * Wrap a command's work: build its context from the global options, run it, print its outcome or
 * its failure, and record the exit status. Commands stay thin: parse, call the library, print.
 */
export const action =
  <A extends unknown[]>(io: Io, work: (ctx: Context, ...args: A) => Promise<Outcome>) =>
  async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    const json = (command.optsWithGlobals() as { json?: boolean }).json === true;
    try {
      const ctx = await contextOf(command, io);
      exitStatus.value = printOutcome(ctx, await work(ctx, ...(params.slice(0, -1) as A)));
    } catch (error) {
      exitStatus.value = printFailure(io, json, error);
    }
  };

/** A `--help` footer with examples, as git and cargo print them. */
export const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
