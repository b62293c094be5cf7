import { refusal } from '../errors.js';
import { checksRejection } from '../events/ci-check.js';
import type { CheckResult } from '../events/event.js';
import type { AppendResult } from '../store/append.js';
import type { StoreRef } from '../store/store.js';
import type { ActorOptions } from './capture.js';
import { appendCommand } from './command.js';

/**
 * Record the project's CI checks as they finished on the input captured for the round in progress
 * (`checks.recorded`). Each name and link is someone's input (a flag, a file gh wrote, an MCP
 * argument): checked here, the door every record passes (`invalid-text`); every rule (a required
 * check that must be there, one that failed ending the round `ci_failed`) is evolve's.
 */
export const recordChecks = (
  store: StoreRef,
  runId: string,
  checks: ReadonlyArray<CheckResult>,
  field: string,
  options: ActorOptions,
): Promise<AppendResult> => {
  const refused = checksRejection(checks, field);
  if (refused !== undefined) return Promise.reject(refusal(refused));
  return appendCommand(store, runId, { kind: 'record-checks', checks }, options);
};
