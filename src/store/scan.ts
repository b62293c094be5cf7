import type { StoredEvent } from '@clearance/fold/internal/events/event.js';
import type { Evolve } from '@clearance/fold/internal/projections/evolve.js';
import { step } from '@clearance/fold/internal/projections/fold.js';
import { initialState, type RunState } from '@clearance/fold/internal/projections/state.js';
import { type Head, LOG_START, type LogSummary, type ScanStart, scanLog } from './log-format.js';

/** Where a fold of a log stands: its state and how many events it checked, and refused. */
export type Tally = Readonly<{ state: RunState; events: number; refused: number }>;

const FROM_NOTHING: Tally = Object.freeze({ state: initialState, events: 0, refused: 0 });

/**
 * The scan-and-step loop every read of a log runs (`verify`'s fold from the start, and the catch-up
 * of both stores from a checkpoint): check each line of `bytes` (the log from `from` on) and step
 * the state through it with `evolve`, from `start` (a checkpoint's) or the initial state. `seen` is
 * shown every event checked, refused or not. Refused events change nothing and are counted.
 */
export const scanAndStep = (
  evolve: Evolve,
  bytes: Buffer | string,
  head: Head | null,
  start: Tally | null,
  from: ScanStart = LOG_START,
  seen?: (event: StoredEvent) => void,
): LogSummary & Tally => {
  let { state, events, refused } = start ?? FROM_NOTHING;
  const summary = scanLog(
    bytes,
    head,
    (event) => {
      seen?.(event);
      const after = step(evolve, state, event);
      state = after.state;
      events += 1;
      if (after.rejection !== null) refused += 1;
    },
    from,
  );
  return { ...summary, state, events, refused };
};
