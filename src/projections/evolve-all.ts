import * as E from 'fp-ts/lib/Either.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { reduce } from './reduce.js';
import type { RunState } from './state.js';

// Its own file, apart from `decide`: both stores check a new run's first events with it (opening a
// run; appends go through `foldOffered`), and must not load the report schema (zod) that
// `decideUntrusted` parses untrusted input with; a command's start-up pays for that.

/** Apply events in order with `evolve`; the first refusal refuses them all (`reduce`, stopping). */
export const evolveAll = (
  state: RunState,
  events: ReadonlyArray<DomainEvent>,
): E.Either<Rejection, RunState> => {
  const reached = reduce(state, events, 'stop');
  return reached.rejection === null ? E.right(reached.state) : E.left(reached.rejection);
};
