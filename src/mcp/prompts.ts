import { quoted } from '@clearance/fold/internal/events/quoted.js';
import { isRunId } from '@clearance/fold/internal/events/run-id.js';
import { ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { reviewBrief } from '../operations/brief.js';
import type { OperationContext } from '../operations/context.js';
import { failureOf } from '../operations/failure.js';

/**
 * The prompts the server offers: `review-brief`, the exact brief an agent reviewer starts the next
 * round from (what to review, the report to hand back, the open findings to decide, the feedback).
 */
export const PROMPTS: ReadonlyArray<Prompt> = [
  {
    name: 'review-brief',
    description:
      "Before reviewing a round: the brief for it (the input, the report to hand back, the findings to decide, the author's feedback).",
    arguments: [{ name: 'runId', description: 'the run id, e.g. pr-236', required: true }],
  },
];

/** `prompts/get`: the brief of the run named, as one user message; an unknown prompt or run id is refused. */
export const getPrompt = async (
  context: OperationContext,
  name: string,
  args: Readonly<Record<string, string>> | undefined,
): Promise<GetPromptResult> => {
  if (name !== 'review-brief') throw invalidParams(`no prompt ${quoted(name)}: the prompt is review-brief`);
  const runId = args?.runId;
  if (runId === undefined || !isRunId(runId))
    throw invalidParams(
      'review-brief needs runId: 1-128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit',
    );
  try {
    return {
      description: `the review brief of run ${runId}`,
      messages: [{ role: 'user', content: { type: 'text', text: await reviewBrief(context, { runId }) } }],
    };
  } catch (error) {
    // a prompt has no error result of its own: a failure the client can act on is an invalid argument
    const failure = failureOf(error);
    if (!failure.known) throw error;
    throw invalidParams(`${failure.message} [${failure.code}]`);
  }
};

const invalidParams = (message: string): Error =>
  Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
