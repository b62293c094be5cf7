import * as E from '#either';
import type { DomainEvent } from '../events/event.js';
import { nobleEd25519 } from '../events/noble-ed25519.js';
import type { Rejection } from '../events/rejection.js';
import type { Command } from '../projections/commands.js';
import { createDecider, type RunDecider } from '../projections/decider.js';
import { reduce } from '../projections/fold.js';
import type { RunState } from '../projections/state.js';

/** The decider the generated runs and offers are judged by: signed rulings checked in JavaScript. */
export const testingDecider: RunDecider = createDecider({ verifyEd25519: nobleEd25519 });

/** Events applied in order with `evolve`; the first refusal refuses them all. */
export const evolveEach = (
  state: RunState,
  events: ReadonlyArray<DomainEvent>,
  decider: RunDecider = testingDecider,
): E.Either<Rejection, RunState> => {
  const reached = reduce(decider.evolve, state, events, 'stop');
  return reached.rejection === null ? E.right(reached.state) : E.left(reached.rejection);
};

/** What `command` decides against `state`, and the state after its events (a retry leaves it as it was). */
export const decideAndApply = (
  state: RunState,
  command: Command,
  decider: RunDecider = testingDecider,
): E.Either<Rejection, Readonly<{ events: ReadonlyArray<DomainEvent>; state: RunState }>> =>
  E.chain((events: ReadonlyArray<DomainEvent>) =>
    E.map((after: RunState) => ({ events, state: after }))(evolveEach(state, events, decider)),
  )(decider.decide(command, state));
