import * as t from 'io-ts';
import { reportWith } from './report-v1.js';
import { CandidateV3, Verification } from './report-v3.js';
import { DecisionV4 } from './report-v4.js';

/** v5 (placement): a verifier may correct where a candidate is, with evidence. */
const VerificationV5 = t.intersection([
  Verification,
  t.partial({
    correction: t.intersection([
      t.type({ line: t.number, evidence: t.string }),
      t.partial({ file: t.string }),
    ]),
  }),
]);

/** The stored report v5 (placement): v4, with a verification's `correction`; every v4 report is a v5 report. */
export const ReportCodecV5 = t.intersection([
  reportWith(CandidateV3, DecisionV4),
  t.partial({ verifications: t.array(VerificationV5) }),
]);
