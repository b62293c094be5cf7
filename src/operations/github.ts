import type { FindingStatus } from '@clearance/fold/internal/projections/state.js';
import { costReport } from '@clearance/fold/internal/projections/views/cost.js';
import { explain } from '@clearance/fold/internal/projections/views/explain.js';
import { findingsOf, findingView } from '@clearance/fold/internal/projections/views/findings.js';
import { statusOf } from '@clearance/fold/internal/projections/views/status.js';
import { type Annotation, findingAnnotations } from '@clearance/fold/internal/render/github.js';
import { type GateLine, stepSummary } from '@clearance/fold/internal/render/summary.js';
import { intact } from '../store/read.js';
import type { OperationContext } from './context.js';

export type GithubInput = Readonly<{
  runId: string;
  /** only the findings with this status (`findings --status`); all of the run's by default */
  findings?: FindingStatus;
  /** the gate's answer, when the headline is the gate's (`gate --format github`) */
  gate?: GateLine;
}>;

export type GithubResult = Readonly<{
  /** the headline (the verdict, or the gate's answer) first, then the open findings, most important first */
  annotations: ReadonlyArray<Annotation>;
  /** the Markdown step summary, for $GITHUB_STEP_SUMMARY */
  summary: string;
  /** where every finding can be seen, for the line that counts annotations GitHub would not show */
  seeAll: string;
}>;

/**
 * A run said the way a GitHub Actions step shows it: annotations (workflow commands) and a step
 * summary. The same views `status`, `findings` and `explain` answer with; the renderers in
 * `src/render` encode every value for the runner.
 */
export const github = async (ctx: OperationContext, input: GithubInput): Promise<GithubResult> => {
  const { state } = intact(await ctx.store.foldRun(input.runId));
  const explanation = explain(state);
  const headline: Annotation =
    input.gate === undefined
      ? {
          level: state.status === 'blocked' ? 'error' : 'notice',
          title: `clearance: ${input.runId} is ${state.status}`,
          message: explanation.headline,
        }
      : input.gate.approved
        ? { level: 'notice', title: `clearance gate: ${input.runId} approved`, message: input.gate.message }
        : {
            level: 'error',
            title: `clearance gate: ${input.runId} refused (${input.gate.reason ?? 'refused'})`,
            message: input.gate.message,
          };
  const policy = state.run?.policy;
  const shown = findingsOf(state, input.findings).map((f) => findingView(f, state));
  return {
    annotations: [headline, ...(policy === undefined ? [] : findingAnnotations(policy, shown))],
    summary: stepSummary({
      status: statusOf(state),
      explanation,
      cost: costReport(state),
      ...(input.gate === undefined ? {} : { gate: input.gate }),
    }),
    seeAll: `clearance findings ${input.runId} --status open`,
  };
};
