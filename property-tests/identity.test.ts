import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect } from 'vitest';
import { findingId, findingOf, findingsInOrder, isFinal } from '../src/index.js';
import { buildRound, reachableRunArb, roundChoicesArb } from '../src/testing.js';
import { decide } from '../test/support/decider.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

const movingRoundArb = reachableRunArb
  .filter(
    (r) =>
      r.state.run !== null &&
      !isFinal(r.state.status) &&
      findingsInOrder(r.state).map((f) => f.id).length > 0,
  )
  .chain((run) =>
    fc.tuple(
      fc.constant(run),
      // a round that moves files: not one on the same input, which renames nothing
      roundChoicesArb.map((c) => ({ ...c, rename: c.rename ?? 0, sameInput: false })),
    ),
  );

describe('finding identity', () => {
  property([movingRoundArb], { numRuns })(
    'ids survive renames and line moves: the file and line move, the id and what it says stay',
    ([run, choices]) => {
      const { capture, checks, report, citations, result: outcome } = buildRound(run.state, choices);
      const result = decide(run.state, report, {
        capture,
        ...(checks === undefined ? {} : { checks }),
        result: outcome,
        ...(citations === undefined ? {} : { citations }),
      });
      expect(E.isRight(result)).toBe(true);
      if (E.isLeft(result)) return;
      const after = result.right.state;
      const renamed = new Map(capture.renames.map((r) => [r.from, r.to]));
      // a line follows its code: where the capture's moves put it
      const moved = new Map((capture.moves ?? []).map((m) => [m.id, m.to]));
      expect(renamed.size).toBe(1);
      for (const before of findingsInOrder(run.state)) {
        const now = findingOf(after, before.id);
        expect(now?.id).toBe(before.id);
        expect(now?.file).toBe(renamed.get(before.file) ?? before.file);
        expect([now?.category, now?.summary, now?.line]).toEqual([
          before.category,
          before.summary,
          moved.get(before.id) ?? before.line,
        ]);
      }
    },
  );

  property([fc.string(), fc.string(), fc.string(), fc.integer({ min: 1 }), fc.integer({ min: 1 })], {
    numRuns,
  })(
    'an id depends on file, category and summary only, never on the line',
    (file, category, summary, l1, l2) => {
      const a = { file, category, summary, line: l1 };
      const b = { file, category, summary, line: l2 };
      expect(findingId(a)).toBe(findingId(b));
      expect(findingId(a)).toMatch(/^[0-9a-f]{64}$/);
    },
  );
});
