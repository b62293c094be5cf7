import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { listRuns, status } from '../../operations/status.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { statusText, statusWord } from '../format.js';
import { githubOutcome } from '../github-format.js';

export const registerStatus = (program: Command, io: Io): Command =>
  program
    .command('status')
    .description('where a run stands: status, round, cap, input and every finding (no run: every run)')
    .argument('[run]', 'the run id')
    .addHelpText(
      'after',
      examples(
        'clearance status pr-236',
        'clearance status pr-236 --json | jq .status',
        'clearance status pr-236 --format github   # annotations in a GitHub Actions step',
        'clearance status',
      ),
    )
    .action(
      action(io, async (ctx, runId: string | undefined) => {
        if (runId === undefined) {
          if (ctx.format === 'github')
            throw new ClearanceError(
              'usage',
              'status --format github needs a run: clearance status <run> --format github',
            );
          const listing = await listRuns(ctx);
          return {
            json: listing,
            text:
              listing.runs.length === 0
                ? `no runs in ${t(listing.store)}`
                : listing.runs
                    .map(
                      (r) =>
                        `${t(r.runId)}  ${statusWord(ctx.color, r.status)}  round ${r.round}/${r.maxRounds ?? '?'}`,
                    )
                    .join('\n'),
          };
        }
        const view = await status(ctx, { runId });
        const torn =
          view.tornTail === null
            ? ''
            : `\nnote: a torn tail of ${view.tornTail.bytes} byte(s) (never acknowledged) is ignored`;
        const shown = { json: view, text: statusText(ctx.color, view, view.seq) + torn };
        return ctx.format === 'github' && !ctx.json ? githubOutcome(ctx, { runId }, shown) : shown;
      }),
    );
