import { ClearanceError } from '../errors.js';

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * A run id becomes a file name, so it is checked before any path is built from it: no `/`, no
 * `..`, no NUL, nothing empty or longer than 128 characters, nothing that starts with a dot.
 */
export const assertRunId = (runId: string): string => {
  if (typeof runId !== 'string' || !RUN_ID.test(runId) || runId.includes('..')) {
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

export const isRunId = (name: string): boolean => RUN_ID.test(name) && !name.includes('..');
