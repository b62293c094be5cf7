import type { DomainEvent } from '../../events/event.js';
import { requiredChecksOf } from '../../projections/rules/checks.js';
import { accepting, type Context, type Mutation, pickOf } from '../offers.js';
import type { BuiltRound } from '../rounds.js';
import { checksFor } from '../rounds.js';

type Accepting = Context & { valid: BuiltRound };

/** The valid round's capture, then its checks changed by `change`. */
const capturedThenChecks = (c: Accepting, change: (data: NonNullable<BuiltRound['checks']>) => unknown) => {
  const policy = c.state.run?.policy;
  const checks = policy === undefined ? null : checksFor(policy, c.valid.capture);
  if (checks === null) throw new Error('mutation applied under a policy without checks');
  return {
    kind: 'events' as const,
    events: [
      { type: 'revision.captured', data: c.valid.capture },
      { type: 'checks.recorded', data: change(checks) },
    ] as DomainEvent[],
  };
};

const namesChecks = (c: Context) => c.state.run?.policy.checks !== undefined;
/** The required checks that may not be skipped: one of them cannot be left out of a record. */
const mustReport = (c: Context) => {
  const policy = c.state.run?.policy;
  return policy === undefined
    ? []
    : requiredChecksOf(policy).filter((name) => !(policy.checks?.expectedSkips ?? []).includes(name));
};

/** Mutations of the CI checks a policy names: a record that breaks its rules, a report before them. */
export const CHECKS_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'missing-check',
    name: 'a record of checks that leaves out a required check',
    applies: (c) => accepting(c) && mustReport(c).length > 0,
    apply: (c, p) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const left = pickOf(mustReport(c), p);
      return capturedThenChecks(c, (data) => ({
        ...data,
        checks: data.checks.filter((check) => check.name !== left),
      }));
    },
  },
  {
    code: 'checks-not-recorded',
    name: 'a report before the checks its policy requires',
    applies: (c) => accepting(c) && c.valid.checks !== undefined,
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const { report, capture, citations, result } = c.valid;
      return { kind: 'report', report, capture, citations, result };
    },
  },
  {
    code: 'wrong-input',
    name: 'checks of other bytes than the captured input',
    applies: (c) => accepting(c) && namesChecks(c),
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      return capturedThenChecks(c, (data) => ({ ...data, inputSha: `${data.inputSha}-other` }));
    },
  },
  {
    code: 'empty-field',
    name: 'a check without a name',
    applies: (c) => accepting(c) && namesChecks(c),
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      return capturedThenChecks(c, (data) => ({
        ...data,
        checks: [...data.checks, { name: ' ', state: 'passed' }],
      }));
    },
  },
];
