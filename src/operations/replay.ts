import type { TrailEntry } from '@clearance/fold/internal/projections/fold.js';
import { trailNote } from '@clearance/fold/internal/render/event-notes.js';
import { intact, readRun } from '../store/read.js';
import type { OperationContext } from './context.js';
import type { ReplayOutput, ResultOf } from './schemas/results.js';
import type { RunInput } from './status.js';

/**
 * One event of the audit trail: what it did, what it said (its note), and who appended it and when
 * (the envelope's audit metadata).
 */
export type ReplayedEvent = Omit<TrailEntry, 'panel' | 'ended'> &
  Readonly<{ note: string | null; at: string; by: string }>;

type Published = ResultOf<typeof ReplayOutput>;

/** The schema pins each event's envelope and lets the rest of its trail entry through: both are here. */
export type ReplayResult = Omit<Published, 'events'> &
  Readonly<{ events: ReadonlyArray<Published['events'][number] & ReplayedEvent> }>;

/** Replay a run from every byte of its log: each event, who wrote it, what it did or why it was refused. */
export const replay = async (ctx: OperationContext, input: RunInput): Promise<ReplayResult> => {
  const read = intact(await readRun(ctx.store, input.runId));
  const { trail, state } = read.folded;
  return {
    runId: input.runId,
    status: state.status,
    round: state.round,
    // the trail has one entry per event read, refused ones included
    events: trail.map(({ panel: _, ended: __, convergedBy, rejection, ...t }, i) => {
      const event = read.events[i];
      return {
        ...t,
        note: event === undefined ? null : trailNote(event, trail[i] as TrailEntry, state.run?.policy),
        convergedBy,
        rejection,
        at: event?.at ?? '',
        by: event?.by ?? '',
      };
    }),
  };
};
