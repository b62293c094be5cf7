import * as E from 'fp-ts/lib/Either.js';
import type { RevisionCapturedData } from '../events/event.js';
import { type AppendResult, append } from '../store/append.js';
import type { LockOptions } from '../store/lock.js';

export type ActorOptions = LockOptions & Readonly<{ by: string }>;

/** Record what the next round reviews. The round number is the run's, read under the lock. */
export const captureRound = (
  dir: string,
  runId: string,
  capture: Omit<RevisionCapturedData, 'round'>,
  options: ActorOptions,
): Promise<AppendResult> =>
  append(
    dir,
    runId,
    (state) => E.right([{ type: 'revision.captured', data: { ...capture, round: state.round + 1 } }]),
    options,
  );
