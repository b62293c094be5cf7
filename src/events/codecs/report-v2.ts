import * as t from 'io-ts';
import { Candidate, reportWith } from './report-v1.js';

const CandidateV2 = t.intersection([
  Candidate,
  t.partial({ principle: t.string, reproduction: t.type({ command: t.string, expected: t.string }) }),
]);

/** The stored report v2 (lifecycle): candidates may name a principle and carry a reproduction. */
export const ReportCodecV2 = reportWith(CandidateV2);
