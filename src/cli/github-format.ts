import { workflowCommandLines } from '@clearance/fold/internal/render/github.js';
import { type GithubInput, github } from '../operations/github.js';
import { writeOutputFile } from '../operations/write-output.js';
import type { Context } from './context.js';
import type { Outcome } from './output.js';

/**
 * A run as a GitHub Actions step shows it: the command's own outcome (its JSON, and its text for
 * the log), with the workflow commands (a headline annotation first, the verdict or the gate's
 * answer, then the open findings, most important first) and the step summary appended to
 * $GITHUB_STEP_SUMMARY when GitHub asks for one. Every value in them was encoded for the runner
 * by `src/render`.
 */
export const githubOutcome = async (ctx: Context, input: GithubInput, outcome: Outcome): Promise<Outcome> => {
  const shown = await github(ctx, input);
  const summaryFile = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile !== undefined && summaryFile !== '')
    await writeOutputFile(
      summaryFile,
      `${shown.summary}\n`,
      'append',
      'the step summary (GITHUB_STEP_SUMMARY)',
    );
  return { ...outcome, annotations: workflowCommandLines(shown.annotations, shown.seeAll) };
};
