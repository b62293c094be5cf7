import { stepTo } from '@clearance/fold/internal/events/next-step.js';
import { ClearanceError } from '../errors.js';

/** A run no store holds: every read and append says it one way, and that opening it comes first. */
export const missingRun = (
  runId: string,
  where: string,
  details: Readonly<Record<string, unknown>> = {},
): ClearanceError =>
  new ClearanceError(
    'run-missing',
    `no run ${runId} in ${where}: open it first`,
    { runId, ...details },
    stepTo('open', runId),
  );
