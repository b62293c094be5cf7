import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { roundRecorded } from '../events/build.js';
import type { CitationCheck, DomainEvent, RevisionCapturedData, RoundResult } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { parseReport, type RoundReport } from '../events/report.js';
import { evolve } from './evolve.js';
import { resolveFindingRef } from './rules/finding-ref.js';
import type { RunState } from './state.js';

export type Decided = Readonly<{ events: ReadonlyArray<DomainEvent>; state: RunState }>;

export type DecideContext = Readonly<{
  /** the revision this report reviewed, when it has not been captured yet: decided as one step */
  capture?: RevisionCapturedData;
  /** how each candidate's citation resolved at the captured revision (see `src/revision`) */
  citations?: ReadonlyArray<CitationCheck>;
  /** `partial` when the budget ran out or an expert handed in nothing (default `complete`) */
  result?: RoundResult;
}>;

/** Apply events in order with `evolve`; the first refusal refuses them all. */
export const evolveAll = (
  state: RunState,
  events: ReadonlyArray<DomainEvent>,
): E.Either<Rejection, RunState> => {
  let current = state;
  for (const event of events) {
    const next = evolve(current, event);
    if (E.isLeft(next)) return next;
    current = next.right;
  }
  return E.right(current);
};

/** Decisions may name a finding by a unique prefix; the event carries its full id. */
const withFullIds = (state: RunState, report: RoundReport): RoundReport =>
  report.decisions.length === 0
    ? report
    : {
        ...report,
        decisions: report.decisions.map((d) => ({ ...d, id: resolveFindingRef(state.findings, d.id) })),
      };

/**
 * Validate an untrusted report at the boundary, build the events it becomes, and ask `evolve`.
 * `decide` holds no rule of its own: a `Right` carries the events to append and the state after them.
 */
export const decide = (
  state: RunState,
  input: unknown,
  context: DecideContext = {},
): E.Either<Rejection, Decided> =>
  pipe(
    parseReport(input),
    E.map((report) => withFullIds(state, report)),
    E.map(
      (report): ReadonlyArray<DomainEvent> => [
        ...(context.capture === undefined
          ? []
          : [{ type: 'revision.captured', data: context.capture } as const]),
        roundRecorded(report, { citations: context.citations, result: context.result }),
      ],
    ),
    E.chain((events) => E.map((next: RunState) => ({ events, state: next }))(evolveAll(state, events))),
  );
