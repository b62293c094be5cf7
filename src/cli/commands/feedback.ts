import type { Command } from 'commander';
import { feedback } from '../../operations/feedback.js';
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
        const brief = await feedback(ctx, { runId });
        return { json: brief, text: brief.markdown };
      }),
    );
