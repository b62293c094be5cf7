import * as E from 'fp-ts/lib/Either.js';
import type { RunOpened } from '../../events/event.js';
import type { Policy } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import { isFinal, type Run, type RunState } from '../state.js';
import { type Check, fail, isBlank, ok } from './check.js';

/** Rounds, captures and failures are only accepted by a run that is opened and not yet final. */
export const acceptingRounds = (state: RunState): E.Either<Rejection, Run> => {
  if (state.run === null)
    return fail('not-opened', 'the run has no run.opened event: open it before anything else');
  if (isFinal(state.status)) {
    return fail(
      'run-final',
      `run ${state.run.runId} is ${state.status} after round ${state.round}: converged and blocked are final, nothing more is accepted`,
    );
  }
  return E.right(state.run);
};

export const notYetOpened = (state: RunState): Check =>
  state.run === null
    ? ok
    : fail('already-opened', `run ${state.run.runId} is already open: a run is opened exactly once`, [
        'type',
      ]);

/** The shape of a policy is checked by its codec; what its numbers must mean is checked here. */
export const policyIsUsable = (policy: Policy): Check => {
  if (!Number.isInteger(policy.maxRounds) || policy.maxRounds < 1) {
    return fail('invalid-policy', `policy.maxRounds must be an integer >= 1, got ${policy.maxRounds}`, [
      'policy',
      'maxRounds',
    ]);
  }
  const severities = Object.entries(policy.severities);
  if (severities.length === 0) {
    return fail('invalid-policy', 'policy.severities is empty: a policy needs at least one severity', [
      'policy',
      'severities',
    ]);
  }
  const stages = policy.stages;
  if (stages.some((s) => s.trim() === '') || new Set(stages).size !== stages.length) {
    return fail(
      'invalid-policy',
      `policy.stages must be distinct, non-empty names, got ${JSON.stringify(stages)}`,
      ['policy', 'stages'],
    );
  }
  for (const [unit, limit] of Object.entries(policy.budget)) {
    if (limit !== undefined && (!Number.isFinite(limit) || limit < 0)) {
      return fail('invalid-policy', `policy.budget.${unit} must be a finite number >= 0, got ${limit}`, [
        'policy',
        'budget',
        unit,
      ]);
    }
  }
  for (const [name, rule] of severities) {
    if (rule.maxAdmitted !== null && (!Number.isInteger(rule.maxAdmitted) || rule.maxAdmitted < 0)) {
      return fail(
        'invalid-policy',
        `policy.severities.${name}.maxAdmitted must be null or an integer >= 0, got ${rule.maxAdmitted}`,
        ['policy', 'severities', name, 'maxAdmitted'],
      );
    }
  }
  return preExistingSeverityIsAdvisory(policy);
};

/** A pre-existing candidate is re-graded to a severity the policy knows, and one that never blocks. */
const preExistingSeverityIsAdvisory = (policy: Policy): Check => {
  const name = policy.preExistingSeverity;
  if (name === undefined || policy.severities[name]?.blocks === false) return ok;
  return fail(
    'invalid-policy',
    `policy.preExistingSeverity ${JSON.stringify(name)} must be a severity of the policy that does not block (${
      Object.hasOwn(policy.severities, name)
        ? 'it blocks'
        : `known: ${Object.keys(policy.severities).join(', ')}`
    })`,
    ['policy', 'preExistingSeverity'],
  );
};

/** `run.opened`: once, with a usable policy; the run's rules are pinned from here on. */
export const openRun = (state: RunState, event: RunOpened): E.Either<Rejection, RunState> => {
  const fresh = notYetOpened(state);
  if (E.isLeft(fresh)) return fresh;
  const usable = policyIsUsable(event.data.policy);
  if (E.isLeft(usable)) return usable;
  const { runId, policy, subject, consent } = event.data;
  if (isBlank(runId)) return fail('empty-field', 'run.opened runId is empty: a run needs an id', ['runId']);
  return E.right({ ...state, status: 'open', run: { runId, policy, subject, consent } });
};
