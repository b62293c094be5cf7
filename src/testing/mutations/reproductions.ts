import { roundRecorded } from '../../events/build.js';
import type { DomainEvent, ReproductionOutcome } from '../../events/event.js';
import { findingOf, findingsInOrder } from '../../projections/finding-index.js';
import type { Finding } from '../../projections/state.js';
import { accepting, type Context, type Mutation, pickOf } from '../offers.js';
import type { BuiltRound } from '../rounds.js';

type Accepting = Context & { valid: BuiltRound };

const rerun = (c: Accepting, finding: Finding, outcome: ReproductionOutcome): DomainEvent => ({
  type: 'reproduction.recorded',
  data: { round: c.valid.capture.round, inputSha: c.valid.capture.inputSha, findingId: finding.id, outcome },
});

const withReproduction = (c: Context) => findingsInOrder(c.state).filter((f) => f.reproduction !== null);
const withoutReproduction = (c: Context) => findingsInOrder(c.state).filter((f) => f.reproduction === null);

/**
 * The valid round's decisions on open findings with a reproduction in a touched file: any status
 * is allowed there. Not a fixed finding the round reopens: `fixed` on it would be `closed-finding`.
 */
const touchedReproducible = (c: Accepting) => {
  const { capture, report } = c.valid;
  const to = new Map(capture.renames.map((r) => [r.from, r.to]));
  const touched = new Set([...capture.touchedFiles, ...capture.renames.map((r) => r.to)]);
  return report.decisions.flatMap((d, i) => {
    const f = findingOf(c.state, d.id);
    return f !== undefined &&
      f.status === 'open' &&
      f.reproduction !== null &&
      touched.has(to.get(f.file) ?? f.file)
      ? [i]
      : [];
  });
};

/** Mutations of a re-review's re-run reproductions. */
export const REPRODUCTIONS_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'no-reproduction',
    name: 'an outcome recorded for a finding that carries no reproduction',
    applies: (c) => accepting(c) && withoutReproduction(c).length > 0,
    apply: (c, p) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const finding = pickOf(withoutReproduction(c), p);
      return {
        kind: 'events',
        events: [{ type: 'revision.captured', data: c.valid.capture }, rerun(c, finding, 'still-fails')],
      };
    },
  },
  {
    code: 'duplicate-reproduction',
    name: 'a second, different outcome for one reproduction on one input',
    applies: (c) => accepting(c) && withReproduction(c).length > 0,
    apply: (c, p) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const finding = pickOf(withReproduction(c), p);
      const [first, second]: ReproductionOutcome[] =
        p % 2 === 0 ? ['still-fails', 'no-longer-fails'] : ['no-longer-fails', 'still-fails'];
      return {
        kind: 'events',
        events: [
          { type: 'revision.captured', data: c.valid.capture },
          rerun(c, finding, first as ReproductionOutcome),
          rerun(c, finding, second as ReproductionOutcome),
        ],
      };
    },
  },
  {
    code: 'reproduction-still-fails',
    name: 'a fixed decision on a finding whose reproduction still fails on this input',
    applies: (c) => accepting(c) && touchedReproducible(c).length > 0,
    apply: (c, p) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const i = pickOf(touchedReproducible(c), p);
      const { report, capture, citations, result } = c.valid;
      const decisions = report.decisions.map((d, j) => (j === i ? { ...d, status: 'fixed' as const } : d));
      const { verdict: _, ...undeclared } = report;
      const finding = findingOf(c.state, decisions[i]?.id ?? '') as Finding;
      return {
        kind: 'events',
        events: [
          { type: 'revision.captured', data: capture },
          rerun(c, finding, 'still-fails'),
          roundRecorded({ ...undeclared, decisions }, { citations, result }),
        ],
      };
    },
  },
];
