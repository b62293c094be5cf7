import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { reproductions } from '../../operations/run-views.js';
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
        const listed = await reproductions(ctx, { runId });
        return {
          json: listed,
          text:
            listed.reproductions.length === 0
              ? `no reproductions to re-run after round ${listed.round} of ${t(runId)}`
              : listed.reproductions
                  .map(
                    (r) =>
                      `${r.findingId.slice(0, 12)} (${r.status}) ${t(r.citation)} ${t(r.summary)}\n  $ ${t(r.command)}\n  expected while the problem is there: ${t(r.expected)}${r.outcome === null ? '' : `\n  on the captured input: ${r.outcome}`}`,
                  )
                  .join('\n'),
        };
      }),
    );
