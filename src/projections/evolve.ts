import * as E from '#either';
import type { Ed25519Verify } from '../events/ed25519.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { onRevisionCaptured } from './rules/capture.js';
import { checksRecordedBefore, onChecksRecorded } from './rules/checks.js';
import { onContributionAbsent, onContributionRecorded } from './rules/contribution.js';
import { reportCostIsReal } from './rules/cost-bounds.js';
import { onFindingDisputed } from './rules/disputes.js';
import { onRunOpened } from './rules/lifecycle.js';
import { movesFollowOpenFindings } from './rules/line-moves.js';
import { onReproductionRecorded } from './rules/reproductions.js';
import { onRoundRecorded } from './rules/round.js';
import { onRoundEnded } from './rules/round-end.js';
import { onRoundFailed } from './rules/round-failed.js';
import { fail } from './rules/rule-answer.js';
import { onFindingRuled, onRoundsExtended } from './rules/rulings.js';
import { onStageFailed, onStageFinished, onStageStarted } from './rules/stages.js';
import type { RunState } from './state.js';

/**
 * The one transition function, and it validates: every rule of a run is decided here, for a fresh
 * offer and for an event read back from a log alike. `Left` means the event is refused and the
 * state stands as it was. It never mutates its arguments and never throws.
 */
export type Evolve = (state: RunState, event: DomainEvent) => E.Either<Rejection, RunState>;

/**
 * What a decider is made with from its host: how a signed ruling's Ed25519 signature is checked,
 * and whether the events it folds are lines whose hash chain its caller has checked.
 */
export type DeciderHost = Readonly<{
  /** absent: a ruling signed under a policy that pins signers is refused as one that cannot be checked */
  verifyEd25519?: Ed25519Verify;
  /**
   * `derive` (the default): a carried report's `reportSha` is derived again (its canonical JSON,
   * hashed) and must equal the one recorded. `as-chained`: it is taken as recorded, for a reader
   * of a store's lines whose hash chain it has checked line by line: the chain binds every byte of
   * a line, and the reportSha is a function of those bytes alone, which anyone able to write a
   * chained line could have written right (docs/storage.md, "What each read checks"). `verify`,
   * `import`, the every-event reads and every offer derive it.
   */
  reportSha?: 'derive' | 'as-chained';
}>;

/** `evolve` for a host: one handler an event type, each named after its event. */
export const evolveWith =
  (host: DeciderHost): Evolve =>
  (state, event) => {
    switch (event.type) {
      case 'run.opened':
        return onRunOpened(state, event);
      case 'revision.captured':
        return E.chainFirst((_: RunState) => movesFollowOpenFindings(state, event.data))(
          onRevisionCaptured(state, event),
        );
      case 'round.recorded':
        return E.chainFirst((_: RunState) => checksRecordedBefore(state, event))(
          E.chain(() => onRoundRecorded(state, event, host))(reportCostIsReal(event.data.report)),
        );
      case 'round.failed':
        return onRoundFailed(state, event);
      case 'stage.started':
        return onStageStarted(state, event);
      case 'stage.finished':
        return onStageFinished(state, event);
      case 'stage.failed':
        return onStageFailed(state, event);
      case 'round.ended':
        return onRoundEnded(state, event);
      case 'finding.ruled':
        return onFindingRuled(state, event, host.verifyEd25519);
      case 'rounds.extended':
        return onRoundsExtended(state, event, host.verifyEd25519);
      case 'contribution.recorded':
        return E.chain(() => onContributionRecorded(state, event, host))(reportCostIsReal(event.data.report));
      case 'contribution.absent':
        return onContributionAbsent(state, event);
      case 'reproduction.recorded':
        return onReproductionRecorded(state, event);
      case 'checks.recorded':
        return onChecksRecorded(state, event);
      case 'finding.disputed':
        return onFindingDisputed(state, event);
      default:
        return fail(
          'unknown-event',
          `unknown event type ${JSON.stringify((event as { type?: unknown }).type)}`,
          ['type'],
        );
    }
  };

/**
 * `evolve` where no signature is ever at stake (a view asking whether a stage may start, a
 * generated round): the same rules, without a verifier.
 */
export const evolveUnsigned: Evolve = evolveWith({});
