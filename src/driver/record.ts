import * as E from 'fp-ts/lib/Either.js';
import type { CitationCheck } from '../events/event.js';
import { type Decided, decide } from '../projections/decide.js';
import { type AppendResult, append } from '../store/append.js';
import type { ActorOptions } from './capture.js';

export type RecordOptions = ActorOptions &
  Readonly<{
    expectedSeq?: number;
    citations?: ReadonlyArray<CitationCheck>;
  }>;

/**
 * Record a round report: validated at the boundary, decided against the run's state under the
 * lock, appended only if every rule holds. A refusal throws with the rejection and writes nothing.
 */
export const recordReport = (
  dir: string,
  runId: string,
  report: unknown,
  options: RecordOptions,
): Promise<AppendResult> =>
  append(
    dir,
    runId,
    (state) =>
      E.map((d: Decided) => d.events)(
        decide(state, report, options.citations === undefined ? {} : { citations: options.citations }),
      ),
    options,
  );
