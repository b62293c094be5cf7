import { reportSha } from './canonical-json.js';
import type { RoundRecorded } from './event.js';
import type { RoundReport } from './report.js';

/** The event a validated report becomes: bound to its round and input, content-addressed by `reportSha`. */
export const roundRecorded = (report: RoundReport): RoundRecorded => ({
  type: 'round.recorded',
  data: { round: report.round, inputSha: report.inputSha, reportSha: reportSha(report), report },
});
