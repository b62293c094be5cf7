import * as t from 'io-ts';
import { reportWith } from './report-v1.js';
import { CandidateV3, Verification } from './report-v3.js';

/** v4: a decision may reopen a fixed finding. */
export const DecisionV4 = t.type({
  id: t.string,
  status: t.keyof({ fixed: null, open: null, withdrawn: null, reopened: null }),
  evidence: t.string,
});

/** The stored report v4 (reopening): a decision may say `reopened`; every v3 report is a v4 report as it stands. */
export const ReportCodecV4 = t.intersection([
  reportWith(CandidateV3, DecisionV4),
  t.partial({ verifications: t.array(Verification) }),
]);
