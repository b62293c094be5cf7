import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { next } from '../../operations/run-views.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { nextLine } from '../next-command.js';

export const registerNext = (program: Command, io: Io): Command =>
  program
    .command('next')
    .description(
      "the driver's one question, after any crash or restart: capture, run a stage, wait for the report, or stop",
    )
    .argument('<run>', 'the run id')
    .addHelpText(
      'after',
      `${examples('clearance next pr-236', 'clearance next pr-236 --json | jq -r .action')}
Actions: capture, record-checks (under a policy with required checks: record them with clearance checks), rerun-reproductions (with the list; record each with clearance reproduce), run-stage (with stage and attempt; resume when it was running), end-partial, wait-report, stop.`,
    )
    .action(
      action(io, async (ctx, runId: string) => {
        const step = await next(ctx, { runId });
        const listed = (step.action === 'rerun-reproductions' ? step.reproductions : []).map(
          (r) =>
            `\n  ${r.findingId.slice(0, 12)} ${t(r.citation)}: $ ${t(r.command)} (while the problem is there: ${t(r.expected)})`,
        );
        const then = step.action === 'stop' ? `\n${nextLine(step.next)}` : '';
        return { json: step, text: `${step.action}: ${t(step.why)}${listed.join('')}${then}` };
      }),
    );
