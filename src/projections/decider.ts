import * as E from '#either';
import { contributionRecorded, roundRecorded } from '../events/build.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { CheckResult, ChecksRecordedData, DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import type { RoundReport } from '../events/report-types.js';
import type { Command, DecideContext, Missing } from './commands.js';
import { type DeciderHost, type Evolve, evolveWith } from './evolve.js';
import { type Folded, foldOffered } from './fold.js';
import { contributionsToMerge, heardFrom, panelOfNextRound } from './rules/contribution.js';
import { resolveFindingRef } from './rules/finding-ref.js';
import { mergeContributions } from './rules/merge.js';
import { nextRoundOf } from './rules/next-round.js';
import { repeatsIn } from './rules/refuted-before.js';
import { alreadyRecorded } from './rules/retry.js';
import { initialState, type RunState } from './state.js';
import { last } from './vec.js';

/**
 * A decider, as Jérémie Chassaing and Emmett write one: the state a stream starts from, what a
 * command becomes against a state, and how an event changes a state. Ours differs in one way on
 * purpose: `evolve` validates, so the same rules judge a fresh command and a log someone else wrote.
 */
export type Decider<C, Ev, S, R> = Readonly<{
  initialState: S;
  /** the events `command` becomes against `state`, each checked by `evolve`, or why it is refused */
  decide: (command: C, state: S) => E.Either<R, ReadonlyArray<Ev>>;
  /** the validating transition: the next state, or why `event` is refused (the state stands) */
  evolve: (state: S, event: Ev) => E.Either<R, S>;
}>;

/** clearance's decider: a review run's commands, events, state and rejections. */
export type RunDecider = Decider<Command, DomainEvent, RunState, Rejection>;

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
const roundEvents = (
  state: RunState,
  report: RoundReport,
  context: DecideContext = {},
): ReadonlyArray<DomainEvent> => [
  ...(context.capture === undefined ? [] : [{ type: 'revision.captured', data: context.capture } as const]),
  ...(context.checks === undefined ? [] : [{ type: 'checks.recorded', data: context.checks } as const]),
  roundRecorded(withFullIds(state, report), { citations: context.citations, result: context.result }),
];

/** One reviewer's parsed report for the round in progress, as the event it becomes (not yet checked). */
const contributionEvents = (
  state: RunState,
  report: RoundReport,
  reviewer: string | undefined,
): ReadonlyArray<DomainEvent> => [contributionRecorded(withFullIds(state, report), reviewer)];

/** The `contribution.absent` event of a reviewer who handed in nothing usable for the round in progress. */
const absenceOf = (state: RunState, { reviewer, reason, detail }: Missing): DomainEvent => ({
  type: 'contribution.absent',
  data: {
    round: nextRoundOf(state),
    inputSha: state.capture?.inputSha ?? '',
    expert: reviewer,
    reason,
    detail,
  },
});

/**
 * Close the round in progress from its contributions: every expected reviewer not heard from is
 * recorded absent (`missing`, or the reason given), and the round is their merge, `partial` when
 * anyone was absent. The rules are evolve's; this only builds the events (not yet checked).
 */
const mergeEvents = (
  state: RunState,
  missing: ReadonlyArray<Missing> = [],
): E.Either<Rejection, ReadonlyArray<DomainEvent>> => {
  const merged = contributionsToMerge(state);
  if (E.isLeft(merged)) return merged;
  const { run, contributions } = merged.right;
  const panel = panelOfNextRound(state);
  const heard = heardFrom(panel);
  const given = missing.filter((m) => !heard.has(m.reviewer));
  const named = new Set(given.map((m) => m.reviewer));
  const unheard = (run.policy.experts ?? [])
    .filter((e) => !heard.has(e) && !named.has(e))
    .map(
      (reviewer): Missing => ({
        reviewer,
        reason: 'missing',
        detail: 'handed in no report before the round was closed',
      }),
    );
  const absences = [...given, ...unheard].map((m) => absenceOf(state, m));
  const merge = mergeContributions(run.policy, contributions, repeatsIn(state));
  const partial = absences.length > 0 || panel.absent.length > 0;
  return E.right([...absences, roundRecorded(merge.report, { result: partial ? 'partial' : 'complete' })]);
};

/**
 * What the checks are recorded as against `state`: for the round in progress and its captured
 * input. The very checks whose required failure just ended the last round, offered again before
 * a new capture, are that record again: a retry, answered already recorded.
 */
const checksRecordFor = (state: RunState, checks: ReadonlyArray<CheckResult>): ChecksRecordedData => {
  const recorded = state.checks;
  const ended = last(state.outcomes);
  if (
    state.capture === null &&
    recorded !== null &&
    recorded.round === state.round &&
    ended?.round === state.round &&
    ended.result === 'ci_failed' &&
    canonicalJson(recorded.checks) === canonicalJson(checks)
  )
    return recorded;
  // no capture yet: evolve refuses it as no-revision, naming the fix
  return { round: nextRoundOf(state), inputSha: state.capture?.inputSha ?? '', checks };
};

/** One event, as a decision that cannot be refused before `evolve` sees it. */
const one = (event: DomainEvent): E.Either<Rejection, ReadonlyArray<DomainEvent>> => E.right([event]);

/**
 * The events `command` becomes against the run's `state`, built and not yet checked: every event
 * anything appends is built here, and every rule is `evolve`'s (`offer` asks it). A `Left` is an
 * offer refused before any event exists (a merge with nothing to merge).
 */
export const buildEvents = (
  command: Command,
  state: RunState,
): E.Either<Rejection, ReadonlyArray<DomainEvent>> => {
  const round = nextRoundOf(state);
  switch (command.kind) {
    case 'open':
      return E.right([
        { type: 'run.opened', data: command.opened },
        ...(command.capture === undefined
          ? []
          : [{ type: 'revision.captured', data: command.capture } as const]),
      ]);
    case 'capture':
      return one({ type: 'revision.captured', data: { ...command.capture, round } });
    case 'record':
      return E.right(roundEvents(state, command.report, command.context));
    case 'contribute':
      return E.right(contributionEvents(state, command.report, command.reviewer));
    case 'absent':
      return E.right(command.missing.map((m) => absenceOf(state, m)));
    case 'merge':
      return mergeEvents(state, command.missing);
    case 'fail-round': {
      // `runId` is no field of the event's schema, but its lines have always carried it first
      const data = {
        runId: command.runId,
        round,
        inputSha: state.capture?.inputSha ?? '',
        reason: command.reason,
        detail: command.detail,
      };
      return one({ type: 'round.failed', data });
    }
    case 'record-checks':
      return one({ type: 'checks.recorded', data: checksRecordFor(state, command.checks) });
    case 'start-stage': {
      const { stage } = command;
      return one({
        type: 'stage.started',
        data: {
          round,
          stage: stage.stage,
          commands: [...(stage.commands ?? [])],
          ...(stage.estimate === undefined ? {} : { estimate: stage.estimate }),
        },
      });
    }
    case 'finish-stage': {
      const { stage, outputSha, cost, runner } = command.stage;
      return one({ type: 'stage.finished', data: { round, stage, outputSha, cost: cost ?? {}, runner } });
    }
    case 'fail-stage': {
      const { stage, reason, cost, runner } = command.stage;
      return one({ type: 'stage.failed', data: { round, stage, reason, cost: cost ?? {}, runner } });
    }
    case 'end-round':
      return one({ type: 'round.ended', data: { round, ...command.end } });
    case 'rule': {
      const { ruling } = command;
      return one({
        type: 'finding.ruled',
        data: {
          // a unique prefix of 8+ hex characters becomes the full id; evolve refuses anything else
          findingId: resolveFindingRef(state.findings, ruling.finding),
          status: ruling.status,
          why: ruling.why,
          by: ruling.by,
          ...(ruling.signature === undefined ? {} : { signature: ruling.signature }),
        },
      });
    }
    case 'extend':
      return one({ type: 'rounds.extended', data: { ...command.extension } });
    case 'dispute':
      return one({
        type: 'finding.disputed',
        data: {
          findingId: resolveFindingRef(state.findings, command.finding),
          round,
          reason: command.reason,
        },
      });
    case 'reproduce':
      return one({
        type: 'reproduction.recorded',
        data: {
          round,
          // no capture yet: evolve refuses it as no-revision, naming the fix
          inputSha: state.capture?.inputSha ?? '',
          findingId: resolveFindingRef(state.findings, command.finding),
          outcome: command.outcome,
          ...(command.outputSha === undefined ? {} : { outputSha: command.outputSha }),
        },
      });
  }
};

/** What an offer of events comes to against a state: new events and the fold after them, or a retry. */
export type Offered<T extends DomainEvent> =
  | Readonly<{ kind: 'new'; events: ReadonlyArray<T>; folded: Folded }>
  /** every event is on the record already (see rules/retry.ts): nothing to append */
  | Readonly<{ kind: 'already-recorded' }>
  /** the command came to no event at all */
  | Readonly<{ kind: 'nothing' }>;

/**
 * The one way events are offered to a run, whoever offers them: recognise a retry of what is
 * already on the record, then `place` the events (a store gives each its seq and the line it
 * follows, which a signed ruling is checked against) and pass each through `evolve` once. A store
 * keeps the fold this returns as the state after its write.
 */
export const offer = <T extends DomainEvent>(
  evolve: Evolve,
  state: RunState,
  events: ReadonlyArray<DomainEvent>,
  place: (events: ReadonlyArray<DomainEvent>) => ReadonlyArray<T>,
  firstSeq: number,
): E.Either<Rejection, Offered<T>> => {
  if (events.length === 0) return E.right({ kind: 'nothing' });
  if (events.every((event) => alreadyRecorded(state, event))) return E.right({ kind: 'already-recorded' });
  const placed = place(events);
  return E.map((folded: Folded) => ({ kind: 'new' as const, events: placed, folded }))(
    foldOffered(evolve, state, placed, firstSeq),
  );
};

/** `command`, built against `state` and offered: how a store and `decide` alike begin. */
export const offerCommand = <T extends DomainEvent>(
  evolve: Evolve,
  command: Command,
  state: RunState,
  place: (events: ReadonlyArray<DomainEvent>) => ReadonlyArray<T>,
  firstSeq: number,
): E.Either<Rejection, Offered<T>> =>
  E.chain((events: ReadonlyArray<DomainEvent>) => offer(evolve, state, events, place, firstSeq))(
    buildEvents(command, state),
  );

/**
 * clearance's decider for a host: `decide` builds a command's events and checks each with `evolve`
 * (a retry of what is already on the record decides no event); `evolve` is every rule. Made
 * without a verifier, it refuses a ruling signed under a policy that pins signers, as one it
 * cannot check.
 */
export const createDecider = (host: DeciderHost = {}): RunDecider => {
  const evolve = evolveWith(host);
  return {
    initialState,
    evolve,
    decide: (command, state) =>
      E.map((offered: Offered<DomainEvent>) => (offered.kind === 'new' ? offered.events : []))(
        offerCommand(evolve, command, state, (events) => events, 1),
      ),
  };
};
