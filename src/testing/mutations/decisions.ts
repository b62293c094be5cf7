import { VERDICTS } from '../../events/round-report.js';
import { findingsInOrder } from '../../projections/finding-index.js';
import { toArray } from '../../projections/vec.js';
import {
  accepting,
  closed,
  forbiddenUntouched,
  type Mutation,
  pickOf,
  touchedDecisions,
  untouchedOpen,
  withReport,
} from '../offers.js';

/** Closed findings the valid report does not already decide (it may reopen a fixed one). */
const undecidedClosed = (c: Parameters<typeof accepting>[0]) => {
  if (!accepting(c)) return [];
  const decided = new Set(c.valid.report.decisions.map((d) => d.id));
  return closed(c).filter((f) => !decided.has(f.id));
};

/** Each fixed finding with an evidence it was decided or ruled with: what a stale reopening repeats. */
const staleReopenings = (c: Parameters<typeof accepting>[0]) =>
  accepting(c)
    ? findingsInOrder(c.state)
        .filter((f) => f.status === 'fixed')
        .flatMap((f) =>
          toArray(f.steps)
            .filter((s) => s.evidence !== undefined && s.evidence.trim() !== '')
            .map((s) => ({ id: f.id, evidence: s.evidence as string })),
        )
    : [];

/** Mutations that break decisions, and the report as a whole. */
export const DECISIONS_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'empty-evidence',
    name: 'decision without evidence',
    applies: (c) => accepting(c) && c.valid.report.decisions.length > 0,
    apply: (c) =>
      withReport(c, (r) => ({
        ...r,
        decisions: r.decisions.map((d, i) => (i === 0 ? { ...d, evidence: '' } : d)),
      })),
  },
  {
    code: 'unknown-finding',
    name: 'decision on no finding',
    applies: accepting,
    apply: (c) =>
      withReport(c, (r) => ({
        ...r,
        decisions: [...r.decisions, { id: 'f'.repeat(64), status: 'fixed', evidence: 'gone' }],
      })),
  },
  {
    code: 'closed-finding',
    name: 'decision on a closed finding',
    applies: (c) => undecidedClosed(c).length > 0,
    apply: (c, p) =>
      withReport(c, (r) => ({
        ...r,
        decisions: [
          ...r.decisions,
          { id: pickOf(undecidedClosed(c), p).id, status: 'open', evidence: 'reopen' },
        ],
      })),
  },
  {
    code: 'not-reopenable',
    name: 'reopening a finding that is not fixed',
    applies: (c) => accepting(c) && findingsInOrder(c.state).some((f) => f.status !== 'fixed'),
    apply: (c, p) =>
      withReport(c, (r) => {
        const target = pickOf(
          findingsInOrder(c.state).filter((f) => f.status !== 'fixed'),
          p,
        );
        return {
          ...r,
          decisions: [
            ...r.decisions.filter((d) => d.id !== target.id),
            { id: target.id, status: 'reopened', evidence: 'it came back' },
          ],
        };
      }),
  },
  {
    code: 'stale-evidence',
    name: 'reopening a fixed finding with the evidence an earlier decision gave',
    applies: (c) => staleReopenings(c).length > 0,
    apply: (c, p) =>
      withReport(c, (r) => {
        const { id, evidence } = pickOf(staleReopenings(c), p);
        return {
          ...r,
          decisions: [
            ...r.decisions.filter((d) => d.id !== id),
            { id, status: 'reopened', evidence: ` ${evidence}\n` },
          ],
        };
      }),
  },
  {
    code: 'untouched-decision',
    name: 'forbidden decision on an untouched file',
    applies: (c) => untouchedOpen(c).length > 0 && forbiddenUntouched(c).length > 0,
    apply: (c, p) =>
      withReport(c, (r) => ({
        ...r,
        decisions: [
          ...r.decisions,
          {
            id: pickOf(untouchedOpen(c), p).id,
            status: pickOf(forbiddenUntouched(c), p),
            evidence: 'ruled anyway',
          },
        ],
      })),
  },
  {
    code: 'duplicate-decision',
    name: 'two decisions on one finding',
    applies: (c) => accepting(c) && c.valid.report.decisions.length > 0,
    apply: (c, p) => withReport(c, (r) => ({ ...r, decisions: [...r.decisions, pickOf(r.decisions, p)] })),
  },
  {
    code: 'missing-decision',
    name: 'a touched open finding left undecided',
    applies: (c) => touchedDecisions(c).length > 0,
    apply: (c, p) => {
      const drop = pickOf(touchedDecisions(c), p).id;
      return withReport(c, (r) => ({ ...r, decisions: r.decisions.filter((d) => d.id !== drop) }));
    },
  },
  {
    code: 'missing-not-examined',
    name: 'empty report that lists nothing skipped',
    applies: (c) => accepting(c) && c.state.run?.policy.notExaminedRequired === true,
    apply: (c) => withReport(c, ({ notExamined: _, verdict: __, ...r }) => ({ ...r, candidates: [] })),
  },
  {
    code: 'verdict-mismatch',
    name: 'a declared verdict that is not the derived one',
    applies: accepting,
    apply: (c, p) =>
      withReport(c, (r) => ({
        ...r,
        verdict: pickOf(
          VERDICTS.filter((v) => v !== c.valid?.status),
          p,
        ),
      })),
  },
];
