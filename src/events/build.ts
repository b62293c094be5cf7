import { reportSha } from './canonical-json.js';
import type { CitationCheck, RoundRecorded } from './event.js';
import type { RoundReport } from './report.js';

/**
 * The event a validated report becomes: bound to its round and input, content-addressed by
 * `reportSha`, with how its citations resolved when they were checked.
 */
export const roundRecorded = (
  report: RoundReport,
  citations?: ReadonlyArray<CitationCheck>,
): RoundRecorded => ({
  type: 'round.recorded',
  data: {
    round: report.round,
    inputSha: report.inputSha,
    reportSha: reportSha(report),
    report,
    ...(citations === undefined ? {} : { citations }),
  },
});
