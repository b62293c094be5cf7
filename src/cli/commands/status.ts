import type { Command } from 'commander';
import { statusOf } from '../../projections/views/status.js';
import { listRuns } from '../../store/list.js';
import { readIntactRunStatus, readRunSummary } from '../../store/read.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { statusText, statusWord } from '../format.js';

export const registerStatus = (program: Command, io: Io): Command =>
  program
    .command('status')
    .description('where a run stands: status, round, cap, input and every finding (no run: every run)')
    .argument('[run]', 'the run id')
    .addHelpText(
      'after',
      examples('clearance status pr-236', 'clearance status pr-236 --json | jq .status', 'clearance status'),
    )
    .action(
      action(io, async (ctx, runId: string | undefined) => {
        if (runId === undefined) {
          const runs = [];
          // one run at a time, from its fold checkpoint where it matches: only a line each is kept
          for (const id of await listRuns(ctx.dir)) {
            const read = readRunSummary(ctx.dir, id);
            runs.push({
              runId: id,
              status: read.issue === null ? read.status : 'damaged',
              round: read.round,
              maxRounds: read.maxRounds,
            });
          }
          return {
            json: { dir: ctx.dir, runs },
            text:
              runs.length === 0
                ? `no runs in ${ctx.dir}`
                : runs
                    .map(
                      (r) =>
                        `${r.runId}  ${statusWord(ctx.color, r.status)}  round ${r.round}/${r.maxRounds ?? '?'}`,
                    )
                    .join('\n'),
          };
        }
        const read = readIntactRunStatus(ctx.dir, runId);
        const view = statusOf(read.state);
        const torn =
          read.tornTail === null
            ? ''
            : `\nnote: a torn tail of ${read.tornTail.bytes} byte(s) (never acknowledged) is ignored`;
        return {
          json: { ...view, seq: read.lastSeq, tornTail: read.tornTail },
          text: statusText(ctx.color, view, read.lastSeq) + torn,
        };
      }),
    );
