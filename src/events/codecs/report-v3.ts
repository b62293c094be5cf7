import * as t from 'io-ts';
import { reportWith } from './report-v1.js';

/** A verifier's assessment of a candidate, stored in the field `verdict`. */
const Assessment = t.keyof({ refuted: null, plausible: null, confirmed: null });

/** v3 (assessments): a candidate is `confirmed: true` or carries a verifier's assessment, and may link to a finding. */
export const CandidateV3 = t.intersection([
  t.type({ file: t.string, category: t.string, summary: t.string, severity: t.string, evidence: t.string }),
  t.partial({
    line: t.number,
    section: t.string,
    confirmed: t.boolean,
    verdict: Assessment,
    introducedByDiff: t.boolean,
    sameAs: t.string,
    principle: t.string,
    reproduction: t.type({ command: t.string, expected: t.string }),
  }),
]);

export const Verification = t.intersection([
  t.type({ file: t.string, category: t.string, summary: t.string, verdict: Assessment, evidence: t.string }),
  t.partial({ severity: t.string, introducedByDiff: t.boolean }),
]);

/** The stored report v3 (assessments): v2's candidates widened, and a verifier's rulings on other contributions' candidates. */
export const ReportCodecV3 = t.intersection([
  reportWith(CandidateV3),
  t.partial({ verifications: t.array(Verification) }),
]);
