import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { contributionRecorded, roundRecorded } from '../events/build.js';
import type {
  AbsenceReason,
  ChecksRecordedData,
  CitationCheck,
  DomainEvent,
  RevisionCapturedData,
  RoundResult,
} from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { parseReport, type RoundReport } from '../events/report.js';
import { evolveAll } from './evolve-all.js';

export { evolveAll } from './evolve-all.js';

import { contributionsToMerge, heardFrom, panelOfNextRound } from './rules/contribution.js';
import { resolveFindingRef } from './rules/finding-ref.js';
import { mergeContributions } from './rules/merge.js';
import { alreadyRecorded } from './rules/retry.js';
import type { RunState } from './state.js';

export type Decided = Readonly<{ events: ReadonlyArray<DomainEvent>; state: RunState }>;

export type DecideContext = Readonly<{
  /** the revision this report reviewed, when it has not been captured yet: decided as one step */
  capture?: RevisionCapturedData;
  /** the CI checks of that revision, when they have not been recorded yet: decided in the same step */
  checks?: ChecksRecordedData;
  /** how each candidate's citation resolved at the captured revision (see `src/revision`) */
  citations?: ReadonlyArray<CitationCheck>;
  /** `partial` when the budget ran out or an expert handed in nothing (default `complete`) */
  result?: RoundResult;
}>;

/** Decisions and `sameAs` links may name a finding by a unique prefix; the event carries its full id. */
const withFullIds = (state: RunState, report: RoundReport): RoundReport => {
  const linked = report.candidates.some((c) => c.sameAs !== undefined);
  if (report.decisions.length === 0 && !linked) return report;
  return {
    ...report,
    ...(linked
      ? {
          candidates: report.candidates.map((c) =>
            c.sameAs === undefined ? c : { ...c, sameAs: resolveFindingRef(state.findings, c.sameAs) },
          ),
        }
      : {}),
    decisions: report.decisions.map((d) => ({ ...d, id: resolveFindingRef(state.findings, d.id) })),
  };
};

/**
 * The events a round report becomes: the capture it reviewed and its CI checks (when not yet
 * recorded) and its `round.recorded`. Built, not checked: the store checks them with `evolve` under the run's lock,
 * once, and `decide` checks them for callers that hold the state themselves.
 */
export const roundEvents = (
  state: RunState,
  report: RoundReport,
  context: DecideContext = {},
): ReadonlyArray<DomainEvent> => [
  ...(context.capture === undefined ? [] : [{ type: 'revision.captured', data: context.capture } as const]),
  ...(context.checks === undefined ? [] : [{ type: 'checks.recorded', data: context.checks } as const]),
  roundRecorded(withFullIds(state, report), { citations: context.citations, result: context.result }),
];

/**
 * Build the events a parsed report becomes and ask `evolve`. `decide` holds no rule of its own: a
 * `Right` carries the events to append and the state after them.
 */
export const decide = (
  state: RunState,
  report: RoundReport,
  context: DecideContext = {},
): E.Either<Rejection, Decided> => decided(state, roundEvents(state, report, context));

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

/**
 * The events an offer becomes, checked by `evolve`; a retry of what is already on the record is no
 * new fact, so it is handed on unchecked and the store answers it "already recorded", writing nothing.
 */
const decided = (state: RunState, events: ReadonlyArray<DomainEvent>): E.Either<Rejection, Decided> =>
  events.every((event) => alreadyRecorded(state, event))
    ? E.right({ events, state })
    : E.map((next: RunState) => ({ events, state: next }))(evolveAll(state, events));

/** One reviewer's parsed report for the round in progress, as the event it becomes (not yet checked). */
export const contributionEvents = (
  state: RunState,
  report: RoundReport,
  expert: string | undefined,
): ReadonlyArray<DomainEvent> => [contributionRecorded(withFullIds(state, report), expert)];

/** One reviewer's parsed report for the round in progress, decided like a round report. */
export const decideContribution = (
  state: RunState,
  report: RoundReport,
  expert: string | undefined,
): E.Either<Rejection, Decided> => decided(state, contributionEvents(state, report, expert));

export type Missing = Readonly<{ expert: string; reason: AbsenceReason; detail: string }>;

/** The `contribution.absent` event of a reviewer who handed in nothing usable for the round in progress. */
export const absenceOf = (state: RunState, missing: Missing): DomainEvent => ({
  type: 'contribution.absent',
  data: { round: state.round + 1, inputSha: state.capture?.inputSha ?? '', ...missing },
});

/**
 * Close the round in progress from its contributions: every expected reviewer not heard from is
 * recorded absent (`missing`, or the reason given), and the round is their merge, `partial` when
 * anyone was absent. The rules are evolve's; this only builds the events (not yet checked).
 */
export const mergeEvents = (
  state: RunState,
  missing: ReadonlyArray<Missing> = [],
): E.Either<Rejection, ReadonlyArray<DomainEvent>> => {
  const merged = contributionsToMerge(state);
  if (E.isLeft(merged)) return merged;
  const { run, contributions } = merged.right;
  const panel = panelOfNextRound(state);
  const heard = heardFrom(panel);
  const given = missing.filter((m) => !heard.has(m.expert));
  const named = new Set(given.map((m) => m.expert));
  const unheard = (run.policy.experts ?? [])
    .filter((e) => !heard.has(e) && !named.has(e))
    .map(
      (expert): Missing => ({
        expert,
        reason: 'missing',
        detail: 'handed in no report before the round was closed',
      }),
    );
  const absences = [...given, ...unheard].map((m) => absenceOf(state, m));
  const merge = mergeContributions(run.policy, contributions);
  const partial = absences.length > 0 || panel.absent.length > 0;
  return E.right([...absences, roundRecorded(merge.report, { result: partial ? 'partial' : 'complete' })]);
};

/** `mergeEvents`, checked by `evolve`: the events and the state after them. */
export const decideMerge = (
  state: RunState,
  missing: ReadonlyArray<Missing> = [],
): E.Either<Rejection, Decided> =>
  pipe(
    mergeEvents(state, missing),
    E.chain((events) => E.map((next: RunState) => ({ events, state: next }))(evolveAll(state, events))),
  );
