import * as E from 'fp-ts/lib/Either.js';
import { parseReport } from '../../src/events/round-report.js';
import type { DomainEvent, Rejection, RoundReport, RunState } from '../../src/index.js';
import type { Command, DecideContext, Missing } from '../../src/projections/commands.js';
import { type Folded, fold as foldWith, reduce, step as stepWith } from '../../src/projections/fold.js';
import { trailNote } from '../../src/render/event-notes.js';
import { nodeDecider } from '../../src/store/node-decider.js';

/** The decider the stores use (Node's crypto checks signed rulings), for tests that call it directly. */
export const decider = nodeDecider;
export const { evolve } = decider;

export type Decided = Readonly<{ events: ReadonlyArray<DomainEvent>; state: RunState }>;

export const fold = (events: Iterable<DomainEvent & { readonly seq?: number }>, from?: Folded): Folded =>
  foldWith(evolve, events, from);

export const step = (state: RunState, event: DomainEvent) => stepWith(evolve, state, event);

/** Events applied in order with `evolve`; the first refusal refuses them all. */
export const evolveAll = (
  state: RunState,
  events: ReadonlyArray<DomainEvent>,
): E.Either<Rejection, RunState> => {
  const reached = reduce(evolve, state, events, 'stop');
  return reached.rejection === null ? E.right(reached.state) : E.left(reached.rejection);
};

/** What `command` decides, and the state after its events (a retry decides none). */
export const decideCommand = (state: RunState, command: Command): E.Either<Rejection, Decided> =>
  E.chain((events: ReadonlyArray<DomainEvent>) =>
    E.map((after: RunState) => ({ events, state: after }))(evolveAll(state, events)),
  )(decider.decide(command, state));

/** A parsed round report, decided as `record` decides it. */
export const decide = (state: RunState, report: RoundReport, context: DecideContext = {}) =>
  decideCommand(state, { kind: 'record', report, context });

/** Untrusted input: parsed with the report schema first, then decided. */
export const decideUntrusted = (state: RunState, input: unknown, context: DecideContext = {}) =>
  E.chain((report: RoundReport) => decide(state, report, context))(parseReport(input));

export const decideContribution = (state: RunState, report: RoundReport, reviewer: string | undefined) =>
  decideCommand(state, { kind: 'contribute', report, reviewer });

export const decideMerge = (state: RunState, missing: ReadonlyArray<Missing> = []) =>
  decideCommand(state, { kind: 'merge', missing });

/** The trail of `events`, each entry with its note as the audit trail says it (src/render). */
export const notedTrail = (events: ReadonlyArray<DomainEvent & { readonly seq?: number }>) => {
  const folded = fold(events);
  const policy = folded.state.run?.policy;
  return folded.trail.map((entry, i) => ({
    ...entry,
    note: trailNote(events[i] as DomainEvent, entry, policy),
  }));
};
