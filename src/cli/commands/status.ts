import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { statusOf } from '../../projections/views/status.js';
import { readIntactStatus } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { statusText, statusWord } from '../format.js';
import { formatOption, githubOutput, type OutputFormat, verdictAnnotation } from '../github-format.js';

export const registerStatus = (program: Command, io: Io): Command =>
  program
    .command('status')
    .description('where a run stands: status, round, cap, input and every finding (no run: every run)')
    .argument('[run]', 'the run id')
    .addOption(formatOption())
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
      action(io, async (ctx, runId: string | undefined, opts: { format: OutputFormat }) => {
        if (runId === undefined) {
          if (opts.format === 'github')
            throw new ClearanceError(
              'usage',
              'status --format github needs a run: clearance status <run> --format github',
            );
          const runs = [];
          // one run at a time, from its fold checkpoint where it matches: only a line each is kept
          for (const id of await ctx.store.listRuns()) {
            const read = await ctx.store.readRunSummary(id);
            runs.push({
              runId: id,
              status: read.issue === null ? read.status : 'damaged',
              round: read.round,
              maxRounds: read.maxRounds,
            });
          }
          return {
            json: { store: ctx.store.where, runs },
            text:
              runs.length === 0
                ? `no runs in ${ctx.store.where}`
                : runs
                    .map(
                      (r) =>
                        `${r.runId}  ${statusWord(ctx.color, r.status)}  round ${r.round}/${r.maxRounds ?? '?'}`,
                    )
                    .join('\n'),
          };
        }
        const read = await readIntactStatus(ctx.store, runId);
        const view = statusOf(read.state);
        const torn =
          read.tornTail === null
            ? ''
            : `\nnote: a torn tail of ${read.tornTail.bytes} byte(s) (never acknowledged) is ignored`;
        return {
          json: { ...view, seq: read.lastSeq, tornTail: read.tornTail },
          text:
            opts.format === 'github' && !ctx.json
              ? await githubOutput(ctx, read.state, verdictAnnotation(read.state))
              : statusText(ctx.color, view, read.lastSeq) + torn,
        };
      }),
    );
