import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { parseReport, type RoundReport } from '../events/round-report.js';
import type { Command, DecideContext, Missing } from './commands.js';
import { decideCommand } from './decider.js';
import { evolveAll } from './evolve-all.js';

export type { DecideContext, Missing } from './commands.js';
export { absenceOf, contributionEvents, mergeEvents, roundEvents } from './decider.js';
export { evolveAll } from './evolve-all.js';

import { alreadyRecorded } from './rules/retry.js';
import type { RunState } from './state.js';

export type Decided = Readonly<{ events: ReadonlyArray<DomainEvent>; state: RunState }>;

/**
 * The events an offer becomes, checked by `evolve`; a retry of what is already on the record is no
 * new fact, so it is handed on unchecked and the store answers it "already recorded", writing nothing.
 */
const decided = (state: RunState, events: ReadonlyArray<DomainEvent>): E.Either<Rejection, Decided> =>
  events.every((event) => alreadyRecorded(state, event))
    ? E.right({ events, state })
    : E.map((next: RunState) => ({ events, state: next }))(evolveAll(state, events));

/**
 * `decideCommand`, checked by `evolve`, for callers that hold the state themselves: a `Right`
 * carries the events to append and the state after them.
 */
export const decideChecked = (state: RunState, command: Command): E.Either<Rejection, Decided> =>
  pipe(
    decideCommand(command, state),
    E.chain((events) => decided(state, events)),
  );

/**
 * Build the events a parsed report becomes and ask `evolve`. `decide` holds no rule of its own: a
 * `Right` carries the events to append and the state after them.
 */
export const decide = (
  state: RunState,
  report: RoundReport,
  context: DecideContext = {},
): E.Either<Rejection, Decided> => decideChecked(state, { kind: 'record', report, context });

/**
 * For embedders handed untrusted input (JSON from a reviewer, a queue, a file): check its shape
 * with the report schema (`invalid-report`, `invalid-text`, `over-limit`), then `decide`.
 */
export const decideUntrusted = (
  state: RunState,
  input: unknown,
  context: DecideContext = {},
): E.Either<Rejection, Decided> =>
  pipe(
    parseReport(input),
    E.chain((report) => decide(state, report, context)),
  );

/** One reviewer's parsed report for the round in progress, decided like a round report. */
export const decideContribution = (
  state: RunState,
  report: RoundReport,
  expert: string | undefined,
): E.Either<Rejection, Decided> => decideChecked(state, { kind: 'contribute', report, expert });

/** `mergeEvents`, checked by `evolve`: the events and the state after them. */
export const decideMerge = (
  state: RunState,
  missing: ReadonlyArray<Missing> = [],
): E.Either<Rejection, Decided> =>
  pipe(
    decideCommand({ kind: 'merge', missing }, state),
    E.chain((events) => E.map((next: RunState) => ({ events, state: next }))(evolveAll(state, events))),
  );
