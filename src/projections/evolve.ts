import * as E from 'fp-ts/lib/Either.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { captureRevision } from './rules/capture.js';
import { checksRecordedBefore, recordChecks } from './rules/checks.js';
import { recordAbsence, recordContribution } from './rules/contribution.js';
import { reportCostIsReal } from './rules/cost-bounds.js';
import { openRun } from './rules/lifecycle.js';
import { recordReproduction } from './rules/reproductions.js';
import { recordRound } from './rules/round.js';
import { endRound } from './rules/round-end.js';
import { failRound } from './rules/round-failed.js';
import { fail } from './rules/rule-answer.js';
import { extendRounds, ruleFinding } from './rules/rulings.js';
import { failStage, finishStage, startStage } from './rules/stages.js';
import type { RunState } from './state.js';

/**
 * The one transition function: every rule of a run is decided here, for a fresh offer and for an
 * event read back from a log alike. `Left` means the event is refused and `state` stands as it was;
 * `evolve` never mutates its arguments.
 */
export const evolve = (state: RunState, event: DomainEvent): E.Either<Rejection, RunState> => {
  switch (event.type) {
    case 'run.opened':
      return openRun(state, event);
    case 'revision.captured':
      return captureRevision(state, event);
    case 'round.recorded':
      return E.chainFirst((_: RunState) => checksRecordedBefore(state, event))(
        E.chain(() => recordRound(state, event))(reportCostIsReal(event.data.report)),
      );
    case 'round.failed':
      return failRound(state, event);
    case 'stage.started':
      return startStage(state, event);
    case 'stage.finished':
      return finishStage(state, event);
    case 'stage.failed':
      return failStage(state, event);
    case 'round.ended':
      return endRound(state, event);
    case 'finding.ruled':
      return ruleFinding(state, event);
    case 'rounds.extended':
      return extendRounds(state, event);
    case 'contribution.recorded':
      return E.chain(() => recordContribution(state, event))(reportCostIsReal(event.data.report));
    case 'contribution.absent':
      return recordAbsence(state, event);
    case 'reproduction.recorded':
      return recordReproduction(state, event);
    case 'checks.recorded':
      return recordChecks(state, event);
    default:
      return fail(
        'unknown-event',
        `unknown event type ${JSON.stringify((event as { type?: unknown }).type)}`,
        ['type'],
      );
  }
};
