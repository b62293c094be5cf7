import { reportSha } from './canonical-json.js';
import type { CitationCheck, ContributionRecorded, RoundRecorded, RoundResult } from './event.js';
import type { RoundReport } from './report-types.js';

export type RecordedOptions = Readonly<{
  /** how each candidate's citation resolved at the captured revision, when it was checked */
  citations?: ReadonlyArray<CitationCheck> | undefined;
  /** `partial` when the budget ran out or a reviewer handed in nothing (default `complete`) */
  result?: RoundResult | undefined;
}>;

/**
 * The event a validated report becomes: bound to its round and input, content-addressed by
 * `reportSha`, with its result and how its citations resolved when they were checked.
 */
export const roundRecorded = (report: RoundReport, options: RecordedOptions = {}): RoundRecorded => ({
  type: 'round.recorded',
  data: {
    round: report.round,
    inputSha: report.inputSha,
    reportSha: reportSha(report),
    report,
    result: options.result ?? 'complete',
    ...(options.citations === undefined ? {} : { citations: options.citations }),
  },
});

/** The event one reviewer's validated report becomes; no `reviewer` means anonymous (the log's `expert`). */
export const contributionRecorded = (report: RoundReport, reviewer?: string): ContributionRecorded => ({
  type: 'contribution.recorded',
  data: {
    round: report.round,
    inputSha: report.inputSha,
    reportSha: reportSha(report),
    report,
    ...(reviewer === undefined ? {} : { expert: reviewer }),
  },
});
