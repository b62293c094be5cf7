import { isRunId } from '@clearance/fold/internal/events/run-id.js';
import { ClearanceError } from '../errors.js';

export { isRunId } from '@clearance/fold/internal/events/run-id.js';

/**
 * A run id becomes a file name, so it is checked before any path is built from it: no `/`, no
 * `..`, no NUL, nothing empty or longer than 128 characters, nothing that starts with a dot.
 */
export const assertRunId = (runId: string): string => {
  if (typeof runId !== 'string' || !isRunId(runId)) {
    const shown =
      typeof runId === 'string'
        ? JSON.stringify(runId.length > 40 ? `${runId.slice(0, 40)}…` : runId)
        : String(runId);
    throw new ClearanceError(
      'invalid-run-id',
      `invalid run id ${shown}: a run id is 1-128 characters of A-Z a-z 0-9 . _ -, starts with a letter or digit, and never contains ".."`,
      { runId },
    );
  }
  return runId;
};
