import type { DomainEvent } from '../events/event.js';
import type { Evolve } from '../projections/evolve.js';
import { fold, step, type TrailEntry } from '../projections/fold.js';
import { initialState, type RunState } from '../projections/state.js';
import { trailNote } from './event-notes.js';

/** An event as the log holds it: the domain event and, when known, its envelope's audit metadata. */
export type LoggedEvent = DomainEvent & Readonly<{ seq: number; at?: string; by?: string }>;

/** One entry of the audit trail with who appended the event and when, and what it said. */
export type TimelineEntry = TrailEntry &
  Readonly<{ at: string | null; by: string | null; note: string | null }>;

/**
 * A run read for rendering: its final state, its timeline, and the state as it stood at the end of
 * every round. Reports of code scanning compare one round with the one before it, so the snapshots
 * are kept here, computed once by the same fold every other view uses.
 */
export type RunHistory = Readonly<{
  state: RunState;
  timeline: ReadonlyArray<TimelineEntry>;
  /** `rounds[n]`: the state after round n ended, with what a person ruled before round n + 1 ended */
  rounds: ReadonlyArray<RunState>;
  /** who appended each round's accepted report (envelope `by`): who decided its decisions */
  recordedBy: Readonly<Record<number, string>>;
  /** each accepted round report's citation checks, keyed by round */
  citations: Readonly<
    Record<number, ReadonlyArray<Readonly<{ citation: string; resolved: boolean; reason?: string }>>>
  >;
}>;

export const historyOf = (evolve: Evolve, events: ReadonlyArray<LoggedEvent>): RunHistory => {
  const rounds: RunState[] = [initialState];
  const recordedBy: Record<number, string> = {};
  const citations: Record<number, RunHistory['citations'][number]> = {};
  let state = initialState;
  for (const event of events) {
    const after = step(evolve, state, event);
    state = after.state;
    rounds[state.round] = state;
    if (event.type === 'round.recorded' && after.rejection === null) {
      if (event.by !== undefined) recordedBy[event.data.round] = event.by;
      if (event.data.citations !== undefined) citations[event.data.round] = event.data.citations;
    }
  }
  // a round with no event of its own (never the case in a valid log) keeps the state before it
  for (let n = 1; n < rounds.length; n += 1) rounds[n] ??= rounds[n - 1] ?? initialState;
  const folded = fold(evolve, events);
  const policy = folded.state.run?.policy;
  const timeline = folded.trail.map((entry, i) => {
    const event = events[i];
    return {
      ...entry,
      at: event?.at ?? null,
      by: event?.by ?? null,
      note: event === undefined ? null : trailNote(event, entry, policy),
    };
  });
  return { state: folded.state, timeline, rounds, recordedBy, citations };
};

/** The state at the end of round `n` (0: before any round ended). */
export const stateAtRound = (history: RunHistory, n: number): RunState =>
  history.rounds[Math.min(n, history.rounds.length - 1)] ?? initialState;
