import { Option } from 'commander';
import { type GithubInput, github } from '../operations/github.js';
import { writeOutputFile } from '../operations/write-output.js';
import { workflowCommands } from '../render/github.js';
import type { Context } from './context.js';
import type { Outcome } from './output.js';

export type OutputFormat = 'text' | 'github';

/** `--format github` for `status`, `findings` and `gate`. */
export const formatOption = (): Option =>
  new Option(
    '--format <format>',
    'text for people, or github: GitHub Actions workflow commands (annotations), and a Markdown step summary appended to $GITHUB_STEP_SUMMARY when it is set',
  )
    .choices(['text', 'github'])
    .default('text');

/**
 * A run as a GitHub Actions step shows it: the workflow commands (a headline annotation first, the
 * verdict or the gate's answer, then the open findings, most important first), and the step summary
 * appended to $GITHUB_STEP_SUMMARY when GitHub asks for one. Every value in them was encoded for
 * the runner by `src/render`.
 */
export const githubOutcome = async (ctx: Context, input: GithubInput, exit = 0): Promise<Outcome> => {
  const shown = await github(ctx, input);
  const summaryFile = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile !== undefined && summaryFile !== '')
    await writeOutputFile(
      summaryFile,
      `${shown.summary}\n`,
      'append',
      'the step summary (GITHUB_STEP_SUMMARY)',
    );
  return { json: {}, text: workflowCommands(shown.annotations, shown.seeAll), exit, workflowCommands: true };
};
