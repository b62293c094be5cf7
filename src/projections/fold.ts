import * as E from 'fp-ts/lib/Either.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { noteOf, panelNote } from './event-notes.js';
import { reduce, type Stepped } from './reduce.js';
import {
  type Deferred,
  type Finding,
  type FindingStatus,
  initialState,
  type Refuted,
  type RoundFailure,
  type RunState,
  type RunStatus,
  type Suppressed,
} from './state.js';
import { at, changedIndexes, itemsFrom, last } from './vec.js';

/** What one event did, for the audit trail: its effect on the run, or why it was refused. */
export type TrailEntry = Readonly<{
  seq: number;
  type: string;
  round: number | null;
  /** the run's status after this event (unchanged when it was refused) */
  status: RunStatus;
  opened: ReadonlyArray<string>;
  changed: ReadonlyArray<Readonly<{ id: string; from: FindingStatus; to: FindingStatus }>>;
  moved: ReadonlyArray<Readonly<{ id: string; from: string; to: string }>>;
  suppressed: ReadonlyArray<Suppressed>;
  /** candidates this event's round deferred to a follow-up (past their severity's round, or outside the fix) */
  deferred: ReadonlyArray<Deferred>;
  /** candidates this event's round refuted: dropped, with who refuted them and why */
  refuted: ReadonlyArray<Refuted>;
  failure: RoundFailure | null;
  /** what a lifecycle event said: its stage, result and reason, or who ruled and why */
  note: string | null;
  /** set when a person's ruling made the run converge with this event */
  convergedBy: string | null;
  rejection: Rejection | null;
}>;

export type Folded = Readonly<{ state: RunState; trail: ReadonlyArray<TrailEntry> }>;

export const emptyFold: Folded = Object.freeze({ state: initialState, trail: Object.freeze([]) });

const roundOf = (event: DomainEvent): number | null => ('round' in event.data ? event.data.round : null);

type Effect = Pick<
  TrailEntry,
  'opened' | 'changed' | 'moved' | 'suppressed' | 'deferred' | 'refuted' | 'failure'
>;

const NOTHING: Effect = Object.freeze({
  opened: [],
  changed: [],
  moved: [],
  suppressed: [],
  deferred: [],
  refuted: [],
  failure: null,
});

const effect = (before: RunState, after: RunState): Effect => {
  const failure = after.failedAttempts > before.failedAttempts ? after.lastFailure : null;
  const refuted = after.refuted === before.refuted ? [] : itemsFrom(after.refuted, before.refuted.size);
  const deferred = after.deferred === before.deferred ? [] : itemsFrom(after.deferred, before.deferred.size);
  if (after.findings === before.findings && after.suppressed === before.suppressed) {
    return failure === null && refuted.length === 0 && deferred.length === 0
      ? NOTHING
      : { ...NOTHING, refuted, deferred, failure };
  }
  const was = before.findings.inOrder;
  const now = after.findings.inOrder;
  const opened = itemsFrom(now, was.size).map((f) => f.id);
  const changed: Array<{ id: string; from: FindingStatus; to: FindingStatus }> = [];
  const moved: Array<{ id: string; from: string; to: string }> = [];
  // only the findings the event replaced, in the order they opened: shared subtrees are not read
  for (const place of changedIndexes(was, now)) {
    const from = at(was, place) as Finding;
    const to = at(now, place) as Finding;
    if (from.status !== to.status) changed.push({ id: to.id, from: from.status, to: to.status });
    if (from.file !== to.file) moved.push({ id: to.id, from: from.file, to: to.file });
  }
  return {
    opened,
    changed,
    moved,
    suppressed: itemsFrom(after.suppressed, before.suppressed.size),
    deferred,
    refuted,
    failure,
  };
};

export { type Stepped, step } from './reduce.js';

/** The event's note; a round closed from contributions also says whose, from the panel it added. */
const noteAfter = (event: DomainEvent, before: RunState, after: RunState): string | null => {
  const panel = after.panels.size > before.panels.size ? last(after.panels) : undefined;
  return panel === undefined ? noteOf(event, after) : panelNote(panel, noteOf(event, after));
};

/** The trail's record of one event: what it did to the run, or why it was refused. */
const entryOf = (before: RunState, event: DomainEvent, after: Stepped, seq: number): TrailEntry => ({
  seq,
  type: event.type,
  round: roundOf(event),
  status: after.state.status,
  ...(after.rejection === null ? effect(before, after.state) : NOTHING),
  note: noteAfter(event, before, after.state),
  convergedBy:
    after.rejection === null && before.convergedBy === null ? (after.state.convergedBy?.by ?? null) : null,
  rejection: after.rejection,
});

/**
 * Reduce events with `evolve`. A refused event leaves the state as it was and is recorded, with
 * its rejection, in the trail: an invalid event in a log someone else wrote changes nothing.
 * Folding `b` from `fold(a)` equals folding `a ++ b`. `at` and `by` are never read.
 */
export const fold = (
  events: Iterable<DomainEvent & { readonly seq?: number }>,
  from: Folded = emptyFold,
): Folded => {
  const trail = [...from.trail];
  const { state } = reduce(from.state, events, 'skip', (before, event, after) => {
    trail.push(entryOf(before, event, after, event.seq ?? trail.length + 1));
  });
  return { state, trail };
};

/**
 * The events offered to an append, each passed through `evolve` once: the state after them and
 * their trail (numbered from `firstSeq`), or the first refusal, which refuses them all. What the
 * store writes is what this accepted, so it never folds the new lines again.
 */
export const foldOffered = (
  state: RunState,
  events: ReadonlyArray<DomainEvent>,
  firstSeq: number,
): E.Either<Rejection, Folded> => {
  const trail: TrailEntry[] = [];
  const reached = reduce(state, events, 'stop', (before, event, after, i) => {
    trail.push(entryOf(before, event, after, firstSeq + i));
  });
  return reached.rejection === null ? E.right({ state: reached.state, trail }) : E.left(reached.rejection);
};
