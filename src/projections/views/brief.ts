import { citationOf } from '../citation.js';
import { lookUp, openFindingsIn } from '../finding-index.js';
import { touchedBy } from '../rules/capture.js';
import { pendingDispute } from '../rules/disputes.js';
import { type Finding, isFinal, maxRoundsOf, type RunState, type RunStatus } from '../state.js';
import { openFindings } from './findings.js';

/** An open finding as a reviewer's brief lists it: enough to decide it without asking. */
export type BriefFinding = Readonly<{
  id: string;
  citation: string;
  severity: string;
  blocking: boolean;
  summary: string;
  /** the author's reason, while a dispute of it waits for this round's ruling */
  disputed: string | null;
}>;

/**
 * What the reviewer of the next round is asked, read off the state: the input to review (or that
 * none is captured yet, or that the run is final), what the report must say (the severities the
 * policy knows, which decisions an untouched file may take, whether an empty report must say what
 * it did not examine), and the open findings it must decide (those in files the input touched,
 * and those the author disputed, wherever they are) and may leave (the rest). Data only: `src/render/review-brief.ts` writes it.
 */
export type Brief = Readonly<{
  runId: string;
  status: RunStatus;
  /** the round the next report is for */
  round: number;
  cap: number;
  /** the captured input the round reviews, or null when none is captured yet */
  input: Readonly<{ inputSha: string; touched: ReadonlyArray<string> }> | null;
  severities: ReadonlyArray<Readonly<{ name: string; blocks: boolean }>>;
  untouchedDecisions: ReadonlyArray<string>;
  notExaminedRequired: boolean;
  /** open findings in a file the input touched, and those disputed: each needs a decision */
  toDecide: ReadonlyArray<BriefFinding>;
  /** the other open findings: they carry forward undecided */
  carried: ReadonlyArray<BriefFinding>;
}>;

export const briefOf = (state: RunState): Brief | null => {
  const run = state.run;
  if (run === null) return null;
  const capture = isFinal(state.status) ? null : state.capture;
  // a renamed file's findings are decided under its new name, which the rename's `from` still holds
  const touched =
    capture === null
      ? new Set<string>()
      : new Set([...touchedBy(capture), ...capture.renames.map((r) => r.from)]);
  const shown = (f: Finding): BriefFinding => ({
    id: f.id,
    citation: citationOf(f),
    severity: f.severity,
    blocking: f.blocking,
    summary: f.summary,
    disputed: pendingDispute(f)?.reason ?? null,
  });
  const inTouched = [...touched].flatMap((file) => openFindingsIn(state, file));
  const disputed = state.disputed
    .map((id) => lookUp(state.findings, id))
    .filter((f): f is Finding => f !== undefined && !inTouched.includes(f));
  const toDecide = capture === null ? [] : [...inTouched, ...disputed].map(shown);
  const deciding = new Set(toDecide.map((f) => f.id));
  return {
    runId: run.runId,
    status: state.status,
    round: state.round + 1,
    cap: maxRoundsOf(state),
    input: capture === null ? null : { inputSha: capture.inputSha, touched: [...touchedBy(capture)] },
    severities: Object.entries(run.policy.severities).map(([name, rule]) => ({ name, blocks: rule.blocks })),
    untouchedDecisions: run.policy.untouchedDecisions,
    notExaminedRequired: run.policy.notExaminedRequired,
    toDecide,
    carried: openFindings(state)
      .filter((f) => !deciding.has(f.id))
      .map(shown),
  };
};
