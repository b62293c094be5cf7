import type { DomainEvent, LineMove, RevisionCapturedData } from '../../events/event.js';
import { findingsInOrder } from '../../projections/finding-index.js';
import type { Finding } from '../../projections/state.js';
import { accepting, type Context, fileAfter, type Mutation, type Offer, pickOf } from '../offers.js';

/** The open findings that cite a line: the ones a capture's moves may name. */
const openWithLine = (ctx: Context): ReadonlyArray<Finding> =>
  findingsInOrder(ctx.state).filter((f) => f.status === 'open' && f.line !== null);

/** The valid round's capture, touching `f`'s file, with `moves`: offered as raw events. */
const capturing = (ctx: Context, f: Finding | null, moves: ReadonlyArray<LineMove>): Offer => {
  if (!accepting(ctx)) throw new Error('mutation applied to a state that accepts no round');
  const capture = ctx.valid.capture;
  const touched = f === null ? [] : [fileAfter(capture, f.file)];
  const data: RevisionCapturedData = {
    ...capture,
    touchedFiles: [...new Set([...capture.touchedFiles, ...touched])],
    moves: [...moves],
  };
  const event: DomainEvent = { type: 'revision.captured', data };
  return { kind: 'events', events: [event] };
};

const line = (f: Finding): number => f.line ?? 1;

/** The open findings that cite a line in a file the valid round's capture does not touch. */
const untouchedWithLine = (ctx: Context): ReadonlyArray<Finding> => {
  if (!accepting(ctx)) return [];
  const capture = ctx.valid.capture;
  const touched = new Set([...capture.touchedFiles, ...capture.renames.map((r) => r.to)]);
  return openWithLine(ctx).filter((f) => !touched.has(fileAfter(capture, f.file)));
};

/** Mutations of the moves a capture carries: each must name an open finding's line, in a touched file. */
export const LINE_MOVES_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'invalid-move',
    name: 'a move from another line than the finding stands at, or of one finding twice',
    applies: (c) => accepting(c) && openWithLine(c).length > 0,
    apply: (c, p) => {
      const f = pickOf(openWithLine(c), p);
      const move = { id: f.id, from: line(f), to: line(f) + 10 };
      return p % 2 === 0
        ? capturing(c, f, [{ ...move, from: line(f) + 1 }])
        : capturing(c, f, [move, { ...move, to: line(f) + 20 }]);
    },
  },
  {
    code: 'invalid-move',
    name: 'a move of a finding in a file the capture did not touch',
    applies: (c) => untouchedWithLine(c).length > 0,
    apply: (c, p) => {
      const f = pickOf(untouchedWithLine(c), p);
      return capturing(c, null, [{ id: f.id, from: line(f), to: line(f) + 1 }]);
    },
  },
  {
    code: 'invalid-move',
    name: 'a move of a closed finding, or of one that cites a section',
    applies: (c) =>
      accepting(c) && findingsInOrder(c.state).some((f) => f.status !== 'open' || f.line === null),
    apply: (c, p) => {
      const f = pickOf(
        findingsInOrder(c.state).filter((x) => x.status !== 'open' || x.line === null),
        p,
      );
      return capturing(c, f, [{ id: f.id, from: line(f), to: line(f) + 3 }]);
    },
  },
  {
    code: 'invalid-line',
    name: 'a move to line 0, a negative or a fractional line',
    applies: (c) => accepting(c) && openWithLine(c).length > 0,
    apply: (c, p) => {
      const f = pickOf(openWithLine(c), p);
      return capturing(c, f, [{ id: f.id, from: line(f), to: pickOf([0, -3, 2.5], p) }]);
    },
  },
  {
    code: 'unknown-finding',
    name: 'a move of a finding the run does not have',
    applies: accepting,
    apply: (c) => capturing(c, null, [{ id: 'f'.repeat(64), from: 3, to: 13 }]),
  },
];
