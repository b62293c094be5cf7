import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { dispute } from '../../operations/dispute.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerDispute = (program: Command, io: Io): Command =>
  program
    .command('dispute')
    .description(
      'the author answers an open finding between rounds: it is wrong, and nothing was changed for it; the next round must rule on it (open upholds it, withdrawn accepts the dispute)',
    )
    .argument('<run>', 'the run id')
    .argument('<finding>', 'the finding id, or a unique prefix of at least 8 hex characters')
    .option('--reason <text>', 'why the finding is wrong: one line, on the record')
    .addHelpText(
      'after',
      `${examples('clearance dispute pr-236 827f9ded38b8 --reason "the pool closes the handle on abort: pool.js:88"')}
Say it before the next round's review starts (its stages or contributions): that round must decide
the finding, its file touched or not. The same dispute again is "already recorded" (exit 0); one
dispute per finding until a round rules on it. Under the default policy a blocking finding upheld
over 2 disputes ends the run blocked (reason disputed), for a person to rule or extend.`,
    )
    .action(
      action(io, async (ctx, runId: string, finding: string, opts: { reason?: string }) => {
        if (opts.reason === undefined)
          throw new ClearanceError(
            'usage',
            'dispute needs --reason <text>: one line on why the finding is wrong',
          );
        const r = await dispute(ctx, { runId, finding, reason: opts.reason });
        return {
          json: r,
          text: `${r.alreadyRecorded ? 'already recorded: ' : ''}finding ${r.findingId.slice(0, 12)} disputed: round ${r.round} must rule on it (open upholds it, withdrawn accepts the dispute)`,
        };
      }),
    );
