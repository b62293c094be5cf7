import type { Command } from 'commander';
import { reproductionsToRun } from '../../projections/views/reproductions.js';
import { readIntactState } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerReproductions = (program: Command, io: Io): Command =>
  program
    .command('reproductions')
    .description(
      "the previous round's reproductions, to re-run before a re-review: open findings (still there?) and ones just fixed (gone?), with what each did on the captured input (clearance reproduce)",
    )
    .argument('<run>', 'the run id')
    .addHelpText(
      'after',
      examples(
        'clearance reproductions pr-236',
        'clearance reproductions pr-236 --json | jq -r ".reproductions[].command"',
      ),
    )
    .action(
      action(io, async (ctx, runId: string) => {
        const { state } = await readIntactState(ctx.store, runId);
        const reproductions = reproductionsToRun(state);
        return {
          json: { runId, round: state.round, reproductions },
          text:
            reproductions.length === 0
              ? `no reproductions to re-run after round ${state.round} of ${runId}`
              : reproductions
                  .map(
                    (r) =>
                      `${r.findingId.slice(0, 12)} (${r.status}) ${r.citation} ${r.summary}\n  $ ${r.command}\n  expected while the problem is there: ${r.expected}${r.outcome === null ? '' : `\n  on the captured input: ${r.outcome}`}`,
                  )
                  .join('\n'),
        };
      }),
    );
