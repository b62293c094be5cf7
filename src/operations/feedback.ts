import type { RunState } from '@clearance/fold/internal/projections/state.js';
import { feedbackMarkdown } from '@clearance/fold/internal/render/feedback.js';
import { intact } from '../store/read.js';
import type { OperationContext } from './context.js';
import type { FeedbackOutput, ResultOf } from './schemas/results.js';
import type { RunInput } from './status.js';

export type FeedbackResult = ResultOf<typeof FeedbackOutput>;

/** The feedback of a run already read: its state, and where its log is (`path`). */
export const feedbackOfRun = (state: RunState, path: string): string =>
  feedbackMarkdown(state, `${path} (\`replay\` shows every event)`);

/** "Review feedback, round N" in Markdown, for the producer's next attempt. */
export const feedback = async (ctx: OperationContext, input: RunInput): Promise<FeedbackResult> => {
  const { state, path } = intact(await ctx.store.foldRun(input.runId));
  return {
    runId: input.runId,
    round: state.round,
    status: state.status,
    markdown: feedbackOfRun(state, path),
  };
};
