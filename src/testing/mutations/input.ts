import { REPORT_LIMITS } from '../../events/report.js';
import { accepting, changeCandidate, type Mutation, pickOf, withReport } from '../offers.js';

/** Mutations that break the report's text or its bounds, whatever the policy. */
export const INPUT_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'invalid-text',
    name: 'a lone surrogate in a string',
    applies: accepting,
    apply: (c, p) =>
      p % 2 === 0
        ? changeCandidate(c, (x) => ({ ...x, summary: `${x.summary} \uD800` }))
        : withReport(c, (r) => ({ ...r, notExamined: [...(r.notExamined ?? []), 'the \uDC00 tail'] })),
  },
  {
    code: 'over-limit',
    name: 'a string or a list past its published bound',
    applies: accepting,
    apply: (c, p) =>
      pickOf(
        [
          () => changeCandidate(c, (x) => ({ ...x, summary: 's'.repeat(REPORT_LIMITS.summary + 1) })),
          () => changeCandidate(c, (x) => ({ ...x, evidence: 'e'.repeat(REPORT_LIMITS.evidence + 1) })),
          () =>
            withReport(c, (r) => ({
              ...r,
              notExamined: Array.from({ length: REPORT_LIMITS.notExamined + 1 }, (_, i) => `area ${i}`),
            })),
        ],
        p,
      )(),
  },
];
