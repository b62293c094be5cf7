import * as t from 'io-ts';
import { reportWith } from './report-v1.js';

const Verdict = t.keyof({ refuted: null, plausible: null, confirmed: null });

/** v3 (verdicts): a candidate is `confirmed: true` or carries a verifier's verdict, and may link to a finding. */
export const CandidateV3 = t.intersection([
  t.type({ file: t.string, category: t.string, summary: t.string, severity: t.string, evidence: t.string }),
  t.partial({
    line: t.number,
    section: t.string,
    confirmed: t.boolean,
    verdict: Verdict,
    introducedByDiff: t.boolean,
    sameAs: t.string,
    principle: t.string,
    reproduction: t.type({ command: t.string, expected: t.string }),
  }),
]);

export const Verification = t.intersection([
  t.type({ file: t.string, category: t.string, summary: t.string, verdict: Verdict, evidence: t.string }),
  t.partial({ severity: t.string, introducedByDiff: t.boolean }),
]);

/** The stored report v3 (verdicts): v2's candidates widened, and a verifier's rulings on other contributions' candidates. */
export const ReportCodecV3 = t.intersection([
  reportWith(CandidateV3),
  t.partial({ verifications: t.array(Verification) }),
]);
