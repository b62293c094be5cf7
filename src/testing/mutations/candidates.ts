import type { Candidate } from '../../events/report-types.js';
import {
  accepting,
  type Context,
  changeCandidate,
  type Mutation,
  type Offer,
  pickOf,
  someCandidate,
  unrenamed,
  withReport,
} from '../offers.js';
import type { BuiltRound } from '../rounds.js';

/** Mutations that break candidates. */
export const CANDIDATES_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'empty-field',
    name: 'candidate with a blank field',
    applies: accepting,
    apply: (c, p) => changeCandidate(c, (x) => ({ ...x, [pickOf(['file', 'category', 'summary'], p)]: '' })),
  },
  {
    code: 'unconfirmed',
    name: 'unconfirmed candidate',
    applies: accepting,
    apply: (c) => changeCandidate(c, (x) => ({ ...x, confirmed: false })),
  },
  {
    code: 'unconfirmed',
    name: 'confirmed: true and a verifier assessment at once',
    applies: accepting,
    apply: (c, p) =>
      changeCandidate(c, (x) => ({
        ...x,
        // both at once, whichever of the two the generated candidate carried
        confirmed: true,
        verdict: pickOf(['confirmed', 'plausible', 'refuted'] as const, p),
      })),
  },
  {
    code: 'empty-evidence',
    name: 'candidate without evidence',
    applies: accepting,
    apply: (c) => changeCandidate(c, (x) => ({ ...x, evidence: '   ' })),
  },
  {
    code: 'invalid-line',
    name: 'line 0, negative or fractional',
    applies: accepting,
    apply: (c, p) => changeCandidate(c, (x) => ({ ...x, line: pickOf([0, -1, 1.5], p) })),
  },
  {
    code: 'unknown-severity',
    name: 'severity the policy does not know',
    applies: accepting,
    apply: (c) => changeCandidate(c, (x) => ({ ...x, severity: 'apocalyptic' })),
  },
  {
    code: 'duplicate-candidate',
    name: 'the same candidate twice',
    applies: accepting,
    apply: (c) => {
      const { report } = someCandidate(c as Context & { valid: BuiltRound });
      const first = report.candidates[0] as Candidate;
      return {
        kind: 'report',
        report: { ...report, candidates: [...report.candidates, { ...first, line: (first.line ?? 0) + 1 }] },
        capture: c.valid?.capture,
        citations: c.valid?.citations,
        result: c.valid?.result,
      };
    },
  },
  {
    code: 'existing-finding',
    name: 'an existing finding offered as new',
    applies: (c) => accepting(c) && unrenamed(c).length > 0,
    apply: (c, p) => {
      const f = pickOf(unrenamed(c), p);
      return withReport(c, (r) => ({
        ...r,
        candidates: [
          ...r.candidates,
          {
            file: f.file,
            line: (f.line ?? 0) + 3,
            category: f.category,
            summary: f.summary,
            severity: f.severity,
            confirmed: true,
            evidence: 'again',
            ...(f.principle === null ? {} : { principle: f.principle }),
          },
        ],
      }));
    },
  },
  {
    code: 'citation-unresolved',
    name: 'a citation that resolves to nothing, or was never resolved',
    applies: (c) => accepting(c) && c.valid.citations !== undefined && c.valid.report.candidates.length > 0,
    apply: (c, p) => {
      const offer = withReport(c, (r) => r);
      const citations = c.valid?.citations ?? [];
      const broken =
        p % 2 === 0
          ? citations.map((x, i) =>
              i === 0 ? { ...x, resolved: false, reason: 'the file has 12 lines' } : x,
            )
          : citations.slice(1);
      return { ...offer, citations: broken } as Offer;
    },
  },
];
