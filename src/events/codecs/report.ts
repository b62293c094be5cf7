import * as t from 'io-ts';
import type { RoundReport } from '../report.js';
import { CostCodec } from './cost.js';
import type { SameShape } from './same-shape.js';

/**
 * The persisted form of a round report inside `round.recorded`. It mirrors the zod input schema
 * in `../report.ts` (zod guards the boundary, io-ts the log); `_sameShape` below fails to compile
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

/** v3: a decision may reopen a fixed finding. */
const DecisionV3 = t.type({
  id: t.string,
  status: t.keyof({ fixed: null, open: null, withdrawn: null, reopened: null }),
  evidence: t.string,
});

/**
 * A report around a candidate codec and a decision codec. Only those changed between versions, so
 * every version is this shape; a change anywhere else in the report needs a version that does not use it.
 */
const reportWith = <C extends t.Mixed, D extends t.Mixed>(candidate: C, decision: D) =>
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

export const ReportCodecV1 = reportWith(Candidate, Decision);

const CandidateV2 = t.intersection([
  Candidate,
  t.partial({ principle: t.string, reproduction: t.type({ command: t.string, expected: t.string }) }),
]);

/** v2 (lifecycle): candidates may name a principle and carry a reproduction. */
export const ReportCodecV2 = reportWith(CandidateV2, Decision);

/** v3 (reopening): a decision may say `reopened`; every v2 report is a v3 report as it stands. */
export const ReportCodecV3 = reportWith(CandidateV2, DecisionV3);

type Persisted = t.TypeOf<typeof ReportCodecV3>;
// Decoded values are valid domain values, and neither side has a field the other lacks.
const _sameShape: SameShape<Persisted, RoundReport> = true;
void _sameShape;
