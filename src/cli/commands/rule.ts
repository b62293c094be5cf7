import type { Command } from 'commander';
import { ruleFinding } from '../../driver/lifecycle.js';
import { ClearanceError } from '../../errors.js';
import { action, examples } from '../action.js';
import { actorOf, type Io } from '../context.js';
import { statusWord } from '../format.js';
import { personOf } from '../person.js';

export const registerRule = (program: Command, io: Io): Command =>
  program
    .command('rule')
    .description(
      'past the cap, a person closes an open finding of a blocked run: fixed or withdrawn, with a name and a reason',
    )
    .argument('<run>', 'the run id')
    .argument('<finding>', 'the finding id, or a unique prefix of at least 8 hex characters')
    .option('--fixed', 'the finding is fixed')
    .option('--withdrawn', 'the finding does not hold')
    .option('--why <text>', 'the reason, on the record')
    .addHelpText(
      'after',
      `${examples('clearance rule pr-236 827f9ded38b8 --withdrawn --why "accepted risk: the pool closes the handle" --by "Ada Lovelace"')}
Refused unless the run is blocked. --by NAME is required here and is never taken from $CLEARANCE_ACTOR.`,
    )
    .action(
      action(
        io,
        async (ctx, runId: string, finding: string, opts: { fixed?: boolean; withdrawn?: boolean }) => {
          if ((opts.fixed === true) === (opts.withdrawn === true))
            throw new ClearanceError('usage', 'rule needs exactly one of --fixed or --withdrawn');
          const person = personOf(ctx.command);
          const status = opts.fixed === true ? 'fixed' : 'withdrawn';
          const result = await ruleFinding(ctx.store, runId, { finding, status, ...person }, actorOf(ctx));
          const event = result.appended[0];
          const { state } = result.folded;
          return {
            json: {
              runId,
              findingId: event?.type === 'finding.ruled' ? event.data.findingId : finding,
              findingStatus: status,
              by: person.by,
              status: state.status,
              convergedBy: state.convergedBy?.by ?? null,
              seq: event?.seq ?? null,
            },
            text:
              state.convergedBy === null
                ? `ruled ${status} by ${person.by}; the run is still ${statusWord(ctx.color, state.status)}`
                : `ruled ${status} by ${person.by}: ${runId} is converged by ruling of ${state.convergedBy.by}`,
          };
        },
      ),
    );
