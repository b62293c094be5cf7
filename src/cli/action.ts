import type { Command } from 'commander';
import { type Context, contextOf, type Io } from './context.js';
import { type Outcome, printFailure, printOutcome } from './output.js';

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

/**
 * Wrap a command's work: build its context from the global options, run it, print its outcome or
 * its failure, and record the exit status. Commands stay thin: parse, call the library, print.
 */
export const action =
  <A extends unknown[]>(io: Io, work: (ctx: Context, ...args: A) => Promise<Outcome>) =>
  async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    const json = (command.optsWithGlobals() as { json?: boolean }).json === true;
    let status: number;
    let dir: string | undefined;
    let close: (() => Promise<void>) | undefined;
    try {
      const ctx = await contextOf(command, io);
      dir = ctx.store.kind === 'file' ? ctx.dir : undefined;
      close = ctx.store.close;
      status = printOutcome(ctx, await work(ctx, ...(params.slice(0, -1) as A)));
    } catch (error) {
      status = printFailure(io, json, error, dir);
    } finally {
      // a database connection is released whatever happened; closing cannot change the outcome
      await close?.().catch(() => undefined);
    }
    settle(command, status);
  };

/** A `--help` footer with examples, as git and cargo print them. */
export const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
