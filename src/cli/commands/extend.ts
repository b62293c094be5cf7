import type { Command } from 'commander';
import { extendRun } from '../../driver/lifecycle.js';
import { ClearanceError } from '../../errors.js';
import { maxRoundsOf } from '../../projections/state.js';
import { action, examples } from '../action.js';
import { actorOf, type Io } from '../context.js';
import { parsePositiveInt } from '../inputs.js';
import { personOf } from '../person.js';

export const registerExtend = (program: Command, io: Io): Command =>
  program
    .command('extend')
    .description('past the cap, a person gives a blocked run more rounds, with a name and a reason')
    .argument('<run>', 'the run id')
    .option('--rounds <n>', 'how many rounds to add', parsePositiveInt)
    .option('--why <text>', 'the reason, on the record')
    .addHelpText(
      'after',
      `${examples('clearance extend pr-236 --rounds 1 --why "the fix landed after the cap" --by "Ada Lovelace"')}
Refused unless the run is blocked. --by NAME is required here and is never taken from $CLEARANCE_ACTOR.`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: { rounds?: number }) => {
        if (opts.rounds === undefined) throw new ClearanceError('usage', 'extend needs --rounds <n>');
        const person = personOf(ctx.command);
        const result = await extendRun(ctx.store, runId, { rounds: opts.rounds, ...person }, actorOf(ctx));
        const { state } = result.folded;
        return {
          json: {
            runId,
            rounds: opts.rounds,
            by: person.by,
            maxRounds: maxRoundsOf(state),
            status: state.status,
            seq: result.appended[0]?.seq ?? null,
          },
          text: `extended ${runId} by ${opts.rounds} round(s) on the word of ${person.by}: ${state.status} again, up to ${maxRoundsOf(state)} rounds`,
        };
      }),
    );
