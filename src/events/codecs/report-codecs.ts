import * as t from 'io-ts';
import type { RoundReport } from '../round-report.js';
import { CostCodec } from './cost-codec.js';
import type { SameShape } from './same-shape.js';

/**
 * The persisted form of a round report inside `round.recorded`. It mirrors the zod input schema
 * in `../round-report.ts` (zod guards the boundary, io-ts the log); `_sameShape` below fails to compile
 * if the two drift apart.
 */
const Candidate = t.intersection([
  t.type({
    file: t.string,
    category: t.string,
    summary: t.string,
    severity: t.string,
    confirmed: t.boolean,
    evidence: t.string,
  }),
  t.partial({ line: t.number, section: t.string }),
]);

const Decision = t.type({
  id: t.string,
  status: t.keyof({ fixed: null, open: null, withdrawn: null }),
  evidence: t.string,
});

/** v4: a decision may reopen a fixed finding. */
const DecisionV4 = t.type({
  id: t.string,
  status: t.keyof({ fixed: null, open: null, withdrawn: null, reopened: null }),
  evidence: t.string,
});

/**
 * A report around a candidate codec and a decision codec. Only those changed between versions, so
 * every version is this shape; a change anywhere else in the report needs a version that does not use it.
 */
const reportWith = <C extends t.Mixed, D extends t.Mixed = typeof Decision>(
  candidate: C,
  decision: D = Decision as unknown as D,
) =>
  t.intersection([
    t.type({
      runId: t.string,
      round: t.number,
      inputSha: t.string,
      completed: t.boolean,
      candidates: t.array(candidate),
      decisions: t.array(decision),
    }),
    t.partial({
      verdict: t.keyof({ open: null, converged: null, blocked: null }),
      notExamined: t.array(t.string),
      reviewer: t.string,
      cost: CostCodec,
    }),
  ]);

export const ReportCodecV1 = reportWith(Candidate);

const CandidateV2 = t.intersection([
  Candidate,
  t.partial({ principle: t.string, reproduction: t.type({ command: t.string, expected: t.string }) }),
]);

/** v2 (lifecycle): candidates may name a principle and carry a reproduction. */
export const ReportCodecV2 = reportWith(CandidateV2);

const Verdict = t.keyof({ refuted: null, plausible: null, confirmed: null });

/** v3 (verdicts): a candidate is `confirmed: true` or carries a verifier's verdict, and may link to a finding. */
const CandidateV3 = t.intersection([
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

const Verification = t.intersection([
  t.type({ file: t.string, category: t.string, summary: t.string, verdict: Verdict, evidence: t.string }),
  t.partial({ severity: t.string, introducedByDiff: t.boolean }),
]);

/** v3 (verdicts): v2's candidates widened, and a verifier's rulings on other contributions' candidates. */
export const ReportCodecV3 = t.intersection([
  reportWith(CandidateV3),
  t.partial({ verifications: t.array(Verification) }),
]);

/** v4 (reopening): a decision may say `reopened`; every v3 report is a v4 report as it stands. */
export const ReportCodecV4 = t.intersection([
  reportWith(CandidateV3, DecisionV4),
  t.partial({ verifications: t.array(Verification) }),
]);

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

/** v5 (placement): v4, with a verification's `correction`. */
export const ReportCodecV5 = t.intersection([
  reportWith(CandidateV3, DecisionV4),
  t.partial({ verifications: t.array(VerificationV5) }),
]);

type Persisted = t.TypeOf<typeof ReportCodecV5>;
// Decoded values are valid domain values, and neither side has a field the other lacks.
const _sameShape: SameShape<Persisted, RoundReport> = true;
void _sameShape;
