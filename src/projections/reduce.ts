import * as E from 'fp-ts/lib/Either.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { evolve } from './evolve.js';
import type { RunState } from './state.js';

/** What one event did to a state: the next state, or the same state and why the event was refused. */
export type Stepped = Readonly<{ state: RunState; rejection: Rejection | null }>;

/** One step of every reducer: the next state, or the same state and why the event was refused. */
export const step = (state: RunState, event: DomainEvent): Stepped => {
  const next = evolve(state, event);
  return E.isLeft(next) ? { state, rejection: next.left } : { state: next.right, rejection: null };
};

/**
 * The one reducer loop, every variant's core: step through `events` from `state`, handing each
 * step to `seen` (the audit trail, counts), and stop at the first refusal when `refusal` is
 * `stop` (an offer: one refused event refuses them all) or step past it when `skip` (a log someone
 * else wrote: a refused event changes nothing). Returns the state reached and, when it stopped,
 * the refusal.
 */
export const reduce = <T extends DomainEvent>(
  state: RunState,
  events: Iterable<T>,
  refusal: 'stop' | 'skip',
  seen?: (before: RunState, event: T, after: Stepped, index: number) => void,
): Stepped => {
  let current = state;
  let index = 0;
  for (const event of events) {
    const after = step(current, event);
    if (after.rejection !== null && refusal === 'stop') return { state: current, rejection: after.rejection };
    seen?.(current, event, after, index);
    current = after.state;
    index += 1;
  }
  return { state: current, rejection: null };
};
