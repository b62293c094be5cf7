import * as E from 'fp-ts/lib/Either.js';
import { refusal } from '../errors.js';
import { canonicalJson } from '../events/canonical-json.js';
import { checksRejection } from '../events/ci-check.js';
import type { CheckResult, ChecksRecordedData } from '../events/event.js';
import type { RunState } from '../projections/state.js';
import { last } from '../projections/vec.js';
import type { AppendResult } from '../store/append.js';
import { type StoreRef, storeOf } from '../store/store.js';
import type { ActorOptions } from './capture.js';

/**
 * What the checks are recorded as against `state`: for the round in progress and its captured
 * input, read under the lock. The very checks whose required failure just ended the last round,
 * offered again before a new capture, are that record again: a retry, answered already recorded.
 */
const recordFor = (state: RunState, checks: ReadonlyArray<CheckResult>): ChecksRecordedData => {
  const recorded = state.checks;
  const ended = last(state.outcomes);
  if (
    state.capture === null &&
    recorded !== null &&
    recorded.round === state.round &&
    ended?.round === state.round &&
    ended.result === 'ci_failed' &&
    canonicalJson(recorded.checks) === canonicalJson(checks)
  )
    return recorded;
  // no capture yet: evolve refuses it as no-revision, naming the fix
  return { round: state.round + 1, inputSha: state.capture?.inputSha ?? '', checks };
};

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
  return storeOf(store).append(
    runId,
    (state) => E.right([{ type: 'checks.recorded', data: recordFor(state, checks) }]),
    options,
  );
};
