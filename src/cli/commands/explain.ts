import { renderExplanation } from '@clearance/fold/internal/render/explain-text.js';
import type { Command } from 'commander';
import { explain } from '../../operations/run-views.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerExplain = (program: Command, io: Io): Command =>
  program
    .command('explain')
    .description(
      'why the run is open, converged or blocked: the blocking findings and the rounds that kept them open; for rounds from several reviewers, who reviewed, who was absent, and every merge with its corroboration',
    )
    .argument('<run>', 'the run id')
    .addHelpText('after', examples('clearance explain pr-236'))
    .action(
      action(io, async (ctx, runId: string) => {
        const explanation = await explain(ctx, { runId });
        return { json: explanation, text: renderExplanation(explanation) };
      }),
    );
