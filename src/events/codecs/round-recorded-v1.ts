import * as t from 'io-ts';
import { ReportCodecV1 } from './report-v1.js';

export const CitationCheck = t.intersection([
  t.type({ candidate: t.number, citation: t.string, resolved: t.boolean }),
  t.partial({ reason: t.string }),
]);

/** `round.recorded` v1, as docs/design.md "Events (v1)" defines it. Never edit: add a version. */
export const RoundRecordedV1 = t.intersection([
  t.type({
    round: t.number,
    inputSha: t.string,
    reportSha: t.string,
    report: ReportCodecV1,
  }),
  /** how each candidate's citation resolved at the captured revision, when it was checked */
  t.partial({ citations: t.array(CitationCheck) }),
]);
