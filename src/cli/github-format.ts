import { Option } from 'commander';
import { type GithubInput, github } from '../operations/github.js';
import { writeOutputFile } from '../operations/write-output.js';
import { workflowCommandLines } from '../render/github.js';
import type { Context } from './context.js';
import type { Outcome } from './output.js';

export type OutputFormat = 'text' | 'github';

/** `--format github` for every command: the program's option, so a CI step can give it to any of them. */
export const formatOption = (): Option =>
  new Option(
    '--format <format>',
    'text for people, or github for a GitHub Actions step: status, findings and gate add annotations (workflow commands) and append a Markdown step summary to $GITHUB_STEP_SUMMARY when it is set; every other line is printed where the runner acts on no command',
  )
    .choices(['text', 'github'])
    .default('text');

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
