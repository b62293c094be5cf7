import * as E from 'fp-ts/lib/Either.js';
import { refusal } from '../errors.js';
import type { DomainEvent } from '../events/event.js';
import type { Command } from '../projections/commands.js';
import { buildEvents } from '../projections/decider.js';
import type { RunState } from '../projections/state.js';
import type { AppendOptions, AppendResult } from '../store/append.js';
import { type StoreRef, storeOf } from '../store/store.js';

/**
 * Append what `command` decides against the run's state read under the lock: how the driver
 * writes. The store offers its events to `evolve` there, once; a refusal writes nothing.
 */
export const appendCommand = (
  store: StoreRef,
  runId: string,
  command: Command,
  options: AppendOptions,
): Promise<AppendResult> => storeOf(store).append(runId, command, options);

/**
 * The events `command` becomes against a state read before the lock, for an append bound to that
 * read (the round it waited for): the store still checks them under the lock.
 */
export const decidedAt = (state: RunState, command: Command): ReadonlyArray<DomainEvent> => {
  const events = buildEvents(command, state);
  if (E.isLeft(events)) throw refusal(events.left);
  return events.right;
};
