import type { DomainEvent } from '@clearance/fold/internal/events/event.js';
import { rejection } from '@clearance/fold/internal/events/rejection.js';
import type { Command } from '@clearance/fold/internal/projections/commands.js';
import { buildEvents } from '@clearance/fold/internal/projections/decider.js';
import type { RunState } from '@clearance/fold/internal/projections/state.js';
import * as E from 'fp-ts/lib/Either.js';
import { refusal } from '../errors.js';
import type { ExpectedReport } from '../handoff/judge.js';
import type { AppendOptions, AppendResult } from '../store/append.js';
import type { Store } from '../store/store.js';

/**
 * Append what `command` decides against the run's state read under the lock: how every operation
 * writes. The store offers its events to `evolve` there, once; a refusal writes nothing.
 */
export const appendCommand = (
  store: Store,
  runId: string,
  command: Command,
  options: AppendOptions,
): Promise<AppendResult> => store.append(runId, command, options);

/**
 * The events `command` becomes against a state read before the lock, for an append bound to that
 * read (the round it waited for): the store still checks them under the lock.
 */
export const decidedAt = (state: RunState, command: Command): ReadonlyArray<DomainEvent> => {
  const events = buildEvents(command, state);
  if (E.isLeft(events)) throw refusal(events.left);
  return events.right;
};

/**
 * The report a wait is for: the run's next round and the input captured for it, or the refusal
 * (`not-opened`, `no-revision`, saying `fix`) when there is none to wait for.
 */
export const expectedReport = (state: RunState, runId: string, fix: string): ExpectedReport => {
  const round = state.round + 1;
  if (state.run === null) throw refusal(rejection('not-opened', `run ${runId} has no run.opened event`));
  if (state.capture === null) {
    throw refusal(
      rejection('no-revision', `no revision was captured for round ${round} of ${runId}: ${fix}`, ['round']),
    );
  }
  return { runId, round, inputSha: state.capture.inputSha };
};

/**
 * Archive an output (a stage's, a re-run reproduction's) for an event about to name it: durably,
 * before the event. Only for a run that exists: a mistyped run id is refused `run-missing` before
 * anything is written, instead of leaving an archive behind for a run nobody opened. (An import
 * archives before its run exists, through the store directly.)
 */
export const archiveForEvent = async (store: Store, runId: string, bytes: Uint8Array): Promise<string> => {
  await store.readRunSummary(runId);
  return store.archiveOutput(runId, bytes);
};
