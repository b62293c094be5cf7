import { feedbackMarkdown } from '../render/feedback.js';
import { intact } from '../store/read.js';
import type { OperationContext } from './context.js';
import type { FeedbackOutput, ResultOf } from './schemas/results.js';
import type { RunInput } from './status.js';

export type FeedbackResult = ResultOf<typeof FeedbackOutput>;

/** "Review feedback, round N" in Markdown, for the producer's next attempt. */
export const feedback = async (ctx: OperationContext, input: RunInput): Promise<FeedbackResult> => {
  const { state, path } = intact(await ctx.store.foldRun(input.runId));
  const record = `${path} (\`replay\` shows every event)`;
  return {
    runId: input.runId,
    round: state.round,
    status: state.status,
    markdown: feedbackMarkdown(state, record),
  };
};
