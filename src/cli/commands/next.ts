import type { Command } from 'commander';
import { nextStep } from '../../projections/views/next.js';
import { readIntactState } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

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
Actions: capture, rerun-reproductions (with the list; record each with clearance reproduce), run-stage (with stage and attempt; resume when it was running), end-partial, wait-report, stop.`,
    )
    .action(
      action(io, async (ctx, runId: string) => {
        const { state } = await readIntactState(ctx.store, runId);
        const next = nextStep(state);
        const listed =
          next.action === 'rerun-reproductions'
            ? next.reproductions.map(
                (r) =>
                  `\n  ${r.findingId.slice(0, 12)} ${r.citation}: $ ${r.command} (while the problem is there: ${r.expected})`,
              )
            : [];
        return { json: { runId, ...next }, text: `${next.action}: ${next.why}${listed.join('')}` };
      }),
    );
