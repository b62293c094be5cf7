import type { Command } from 'commander';
import { feedbackMarkdown } from '../../render/feedback.js';
import { readIntactState } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerFeedback = (program: Command, io: Io): Command =>
  program
    .command('feedback')
    .description(
      'print "Review feedback, round N" in Markdown, to re-brief the producer for its next attempt',
    )
    .argument('<run>', 'the run id')
    .addHelpText('after', examples('clearance feedback pr-236 >> prompt.md'))
    .action(
      action(io, async (ctx, runId: string) => {
        const { state } = await readIntactState(ctx.store, runId);
        const record = `${ctx.store.logOf(runId)} (clearance replay ${runId})`;
        const markdown = feedbackMarkdown(state, record);
        return { json: { runId, round: state.round, status: state.status, markdown }, text: markdown };
      }),
    );
