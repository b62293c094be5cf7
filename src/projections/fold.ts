import * as E from '#either';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import type { Evolve } from './evolve.js';
import {
  type Deferred,
  type DisputeRuling,
  type Finding,
  type FindingStatus,
  initialState,
  type Panel,
  type Refuted,
  type RoundFailure,
  type RoundOutcome,
  type RunState,
  type RunStatus,
  type Suppressed,
} from './state.js';
import { at, changedIndexes, itemsFrom, last, type Vec } from './vec.js';

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
  /** candidates this event's round refuted (or kept as refuted before): dropped, with who and why */
  refuted: ReadonlyArray<Refuted>;
  /** the disputes this event ruled on (a round's decisions, a person's ruling), by finding */
  disputesRuled: ReadonlyArray<Readonly<{ id: string; ruling: DisputeRuling }>>;
  failure: RoundFailure | null;
  /** the panel this event's round was closed with: who handed in, who was absent */
  panel: Panel | null;
  /** how the round ended, when this event ended one (a record of checks that failed included) */
  ended: RoundOutcome | null;
  /** set when a person's ruling made the run converge with this event */
  convergedBy: string | null;
  rejection: Rejection | null;
}>;

export type Folded = Readonly<{ state: RunState; trail: ReadonlyArray<TrailEntry> }>;

export const emptyFold: Folded = Object.freeze({ state: initialState, trail: Object.freeze([]) });

const roundOf = (event: DomainEvent): number | null => ('round' in event.data ? event.data.round : null);

type Effect = Pick<
  TrailEntry,
  'opened' | 'changed' | 'moved' | 'suppressed' | 'deferred' | 'refuted' | 'disputesRuled' | 'failure'
>;

const NOTHING: Effect = Object.freeze({
  opened: [],
  changed: [],
  moved: [],
  suppressed: [],
  deferred: [],
  refuted: [],
  disputesRuled: [],
  failure: null,
});

/** The ruling this change of a finding made on its pending dispute, if it made one. */
const rulingMade = (from: Finding, to: Finding): DisputeRuling | null => {
  const was = from.disputes?.at(-1);
  const now = to.disputes?.at(-1);
  return was !== undefined && was.ruling === null && now !== undefined && now.ruling !== null
    ? now.ruling
    : null;
};

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
  const disputesRuled: Array<{ id: string; ruling: DisputeRuling }> = [];
  // only the findings the event replaced, in the order they opened: shared subtrees are not read
  for (const place of changedIndexes(was, now)) {
    const from = at(was, place) as Finding;
    const to = at(now, place) as Finding;
    if (from.status !== to.status) changed.push({ id: to.id, from: from.status, to: to.status });
    if (from.file !== to.file) moved.push({ id: to.id, from: from.file, to: to.file });
    const ruling = rulingMade(from, to);
    if (ruling !== null) disputesRuled.push({ id: to.id, ruling });
  }
  return {
    opened,
    changed,
    moved,
    suppressed: itemsFrom(after.suppressed, before.suppressed.size),
    deferred,
    refuted,
    disputesRuled,
    failure,
  };
};

/** What one event did to a state: the next state, or the same state and why the event was refused. */
export type Stepped = Readonly<{ state: RunState; rejection: Rejection | null }>;

/** One step of every reducer: the next state, or the same state and why the event was refused. */
export const step = (evolve: Evolve, state: RunState, event: DomainEvent): Stepped => {
  const next = evolve(state, event);
  return E.isLeft(next) ? { state, rejection: next.left } : { state: next.right, rejection: null };
};

/**
 * The one reducer loop, every variant's core: step through `events` from `state`, handing each
 * step to `seen` (the audit trail, counts), and stop at the first refusal when `refusal` is
 * `stop` (an offer: one refused event refuses them all) or step past it when `skip` (a log someone
 * else wrote: a refused event changes nothing). Returns the state reached and, when it stopped,
 * the refusal.
 */
export const reduce = <T extends DomainEvent>(
  evolve: Evolve,
  state: RunState,
  events: Iterable<T>,
  refusal: 'stop' | 'skip',
  seen?: (before: RunState, event: T, after: Stepped, index: number) => void,
): Stepped => {
  let current = state;
  let index = 0;
  for (const event of events) {
    const after = step(evolve, current, event);
    if (after.rejection !== null && refusal === 'stop') return { state: current, rejection: after.rejection };
    seen?.(current, event, after, index);
    current = after.state;
    index += 1;
  }
  return { state: current, rejection: null };
};

const added = <T>(before: { readonly size: number }, after: Vec<T>): T | null =>
  after.size > before.size ? (last(after) ?? null) : null;

/** The trail's record of one event: what it did to the run, or why it was refused. */
const entryOf = (before: RunState, event: DomainEvent, after: Stepped, seq: number): TrailEntry => ({
  seq,
  type: event.type,
  round: roundOf(event),
  status: after.state.status,
  ...(after.rejection === null ? effect(before, after.state) : NOTHING),
  panel: added(before.panels, after.state.panels),
  ended: added(before.outcomes, after.state.outcomes),
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
  evolve: Evolve,
  events: Iterable<DomainEvent & { readonly seq?: number }>,
  from: Folded = emptyFold,
): Folded => {
  const trail = [...from.trail];
  const { state } = reduce(evolve, from.state, events, 'skip', (before, event, after) => {
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
  evolve: Evolve,
  state: RunState,
  events: ReadonlyArray<DomainEvent>,
  firstSeq: number,
): E.Either<Rejection, Folded> => {
  const trail: TrailEntry[] = [];
  const reached = reduce(evolve, state, events, 'stop', (before, event, after, i) => {
    trail.push(entryOf(before, event, after, firstSeq + i));
  });
  return reached.rejection === null ? E.right({ state: reached.state, trail }) : E.left(reached.rejection);
};
