import { stepTo } from '@clearance/fold/internal/events/next-step.js';
import { briefOf } from '@clearance/fold/internal/projections/views/brief.js';
import { renderReviewBrief } from '@clearance/fold/internal/render/review-brief.js';
import { ClearanceError } from '../errors.js';
import { intact } from '../store/read.js';
import type { OperationContext } from './context.js';
import { feedbackOfRun } from './feedback.js';
import type { RunInput } from './status.js';

/**
 * The brief for the next round's reviewer, as Markdown: what to review, the report to hand back,
 * the findings to decide, and the author's feedback (the MCP prompt `review-brief`).
 */
export const reviewBrief = async (ctx: OperationContext, input: RunInput): Promise<string> => {
  const { state, path } = intact(await ctx.store.foldRun(input.runId));
  const brief = briefOf(state);
  if (brief === null)
    throw new ClearanceError(
      'not-opened',
      `run ${input.runId} has no run.opened event`,
      {},
      stepTo('open', input.runId),
    );
  return renderReviewBrief(brief, feedbackOfRun(state, path));
};
