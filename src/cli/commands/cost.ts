import { describeCost } from '@clearance/fold/internal/render/cost-text.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { cost } from '../../operations/run-views.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerCost = (program: Command, io: Io): Command =>
  program
    .command('cost')
    .description('what the run spent, per round and stage, and by whom, against its budget')
    .argument('<run>', 'the run id')
    .addHelpText('after', examples('clearance cost pr-236', 'clearance cost pr-236 --json | jq .spent'))
    .action(
      action(io, async (ctx, runId: string) => {
        const report = await cost(ctx, { runId });
        const lines = [
          `${t(runId)}: spent ${describeCost(report.spent)}${Object.keys(report.budget).length === 0 ? ' (no budget)' : ` of ${describeCost(report.budget)}; left ${describeCost(report.remaining)}`}`,
        ];
        for (const r of report.byRound) {
          lines.push(`round ${r.round}: ${describeCost(r.spent)}`);
          for (const s of r.stages)
            lines.push(
              `  ${t(s.stage).padEnd(10)} ${s.outcome.padEnd(8)} ${t(s.runner).padEnd(14)} ${describeCost(s.cost)}`,
            );
        }
        for (const r of report.byRunner) lines.push(`by ${t(r.runner)}: ${describeCost(r.spent)}`);
        return { json: report, text: lines.join('\n') };
      }),
    );
