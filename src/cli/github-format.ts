import { Option } from 'commander';
import type { RunState } from '../projections/state.js';
import { costReport } from '../projections/views/cost.js';
import { explain } from '../projections/views/explain.js';
import { type FindingView, findingsOf, findingView } from '../projections/views/findings.js';
import { statusOf } from '../projections/views/status.js';
import { type Annotation, findingAnnotations, workflowCommands } from '../render/github.js';
import { type GateLine, stepSummary } from '../render/summary.js';
import type { Context } from './context.js';
import { writeOutputFile } from './write-output.js';

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
 * The workflow commands for a run: a headline annotation first (the verdict, or the gate's
 * answer), then the open findings (of `findings`, by default all of the run's), most important first; and the step summary when GitHub asks
 * for one. Writes nothing under --json, which prints its one object instead.
 */
export const githubOutput = async (
  ctx: Context,
  state: RunState,
  headline: Annotation,
  gate?: GateLine,
  findings: ReadonlyArray<FindingView> = findingsOf(state).map((f) => findingView(f, state)),
): Promise<string> => {
  const policy = state.run?.policy;
  const runId = state.run?.runId ?? '?';
  const annotations = [headline, ...(policy === undefined ? [] : findingAnnotations(policy, findings))];
  const summaryFile = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile !== undefined && summaryFile !== '') {
    const summary = stepSummary({
      status: statusOf(state),
      explanation: explain(state),
      cost: costReport(state),
      ...(gate === undefined ? {} : { gate }),
    });
    await writeOutputFile(summaryFile, `${summary}\n`, 'append', 'the step summary (GITHUB_STEP_SUMMARY)');
  }
  return workflowCommands(annotations, `clearance findings ${runId} --status open`);
};

/** The run's verdict as one annotation: an error when blocked, a notice otherwise. */
export const verdictAnnotation = (state: RunState): Annotation => ({
  level: state.status === 'blocked' ? 'error' : 'notice',
  title: `clearance: ${state.run?.runId ?? '?'} is ${state.status}`,
  message: explain(state).headline,
});
