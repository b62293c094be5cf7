import * as t from 'io-ts';
import { CostCodec } from './cost-codec.js';

/**
 * The round report as `round.recorded` v1 stores it. The zod schema in `../round-report.ts` guards
 * the door; each version of the stored report is an io-ts codec here and in `report-v2.ts` to
 * `report-v4.ts`, and `report-v4.ts` fails to compile if the latest drifts from the door's.
 */
export const Candidate = t.intersection([
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

/**
 * A report around a candidate codec and a decision codec. Only those changed between versions, so
 * every version is this shape; a change anywhere else in the report needs a version that does not use it.
 */
export const reportWith = <C extends t.Mixed, D extends t.Mixed = typeof Decision>(
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
