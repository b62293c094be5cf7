import * as t from 'io-ts';
import type { RoundReport } from '../report.js';

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

const Cost = t.partial({ tokens: t.number, usd: t.number, seconds: t.number });

export const ReportCodecV1 = t.intersection([
  t.type({
    runId: t.string,
    round: t.number,
    inputSha: t.string,
    completed: t.boolean,
    candidates: t.array(Candidate),
    decisions: t.array(Decision),
  }),
  t.partial({
    verdict: t.keyof({ open: null, converged: null, blocked: null }),
    notExamined: t.array(t.string),
    reviewer: t.string,
    cost: Cost,
  }),
]);

const CandidateV2 = t.intersection([
  Candidate,
  t.partial({ principle: t.string, reproduction: t.type({ command: t.string, expected: t.string }) }),
]);

/** v2 (lifecycle): candidates may name a principle and carry a reproduction. */
export const ReportCodecV2 = t.intersection([
  t.type({
    runId: t.string,
    round: t.number,
    inputSha: t.string,
    completed: t.boolean,
    candidates: t.array(CandidateV2),
    decisions: t.array(Decision),
  }),
  t.partial({
    verdict: t.keyof({ open: null, converged: null, blocked: null }),
    notExamined: t.array(t.string),
    reviewer: t.string,
    cost: Cost,
  }),
]);

type Persisted = t.TypeOf<typeof ReportCodecV2>;
// Decoded values are valid domain values, and neither side has a field the other lacks.
const _sameShape: Persisted extends RoundReport
  ? keyof Persisted extends keyof RoundReport
    ? keyof RoundReport extends keyof Persisted
      ? true
      : never
    : never
  : never = true;
void _sameShape;
