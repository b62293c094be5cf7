import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  initialState,
  MAX_ROUNDS,
  type Policy,
  PRESET_NAMES,
  PRESETS,
  parsePolicy,
  policyIsUsable,
} from '../../src/index.js';
import { BAD_POLICIES, USABLE_POLICY } from '../support/bad-policies.js';
import { evolve } from '../support/decider.js';

const openWith = (policy: Policy) =>
  evolve(initialState, {
    type: 'run.opened',
    data: { runId: 'r', policy, subject: {}, consent: { by: 't' } },
  });

describe('a policy: its shape in the schema, its values in one table of rules', () => {
  it('a usable policy file parses, with the stated defaults filled in', () => {
    const parsed = parsePolicy(USABLE_POLICY);
    expect(E.isRight(parsed) && parsed.right).toMatchObject({
      maxRounds: 3,
      notExaminedRequired: false,
      untouchedDecisions: [],
      severities: { major: { blocks: true, firstRoundOnly: false, maxAdmitted: null } },
    });
  });

  it.each(BAD_POLICIES)('%s is refused invalid-policy, naming %s', (_what, field, policy) => {
    const parsed = parsePolicy(policy);
    expect(E.isLeft(parsed) && parsed.left.code).toBe('invalid-policy');
    expect(E.isLeft(parsed) && parsed.left.message).toContain(field);
    expect(E.isLeft(parsed) && parsed.left.path[0]).toBe('policy');
  });

  it('disputes in a policy file: either key may be left out (allowed, after 2)', () => {
    expect(parsePolicy({ ...USABLE_POLICY, disputes: { blockAfter: 1 } })).toMatchObject(
      E.right({ disputes: { allowed: true, blockAfter: 1 } }),
    );
    expect(parsePolicy({ ...USABLE_POLICY, disputes: { allowed: false } })).toMatchObject(
      E.right({ disputes: { allowed: false, blockAfter: 2 } }),
    );
    const absent = parsePolicy(USABLE_POLICY);
    expect(E.isRight(absent) && absent.right.disputes).toBeUndefined();
  });

  it('the bounds of maxRounds are 1 and 1,000,000, both usable', () => {
    for (const maxRounds of [1, MAX_ROUNDS]) {
      expect(E.isRight(parsePolicy({ ...USABLE_POLICY, maxRounds }))).toBe(true);
    }
    expect(MAX_ROUNDS).toBe(1_000_000);
  });

  it('every preset is usable under the same rules', () => {
    for (const name of PRESET_NAMES) expect(policyIsUsable(PRESETS[name])).toEqual(E.right(undefined));
  });

  it('a value rule holds for a policy that never met the schema (a library caller, a log): run.opened is refused', () => {
    const values = BAD_POLICIES.map(([, , p]) => parsePolicy(p)).filter(E.isLeft);
    expect(values.length).toBe(BAD_POLICIES.length);
    // the same value rules, reached through evolve with a typed policy
    const typed: ReadonlyArray<readonly [string, Policy]> = [
      ['maxRounds', { ...PRESETS.default, maxRounds: 0 }],
      ['maxRounds', { ...PRESETS.default, maxRounds: Number.NaN }],
      ['severities', { ...PRESETS.default, severities: {} }],
      ['stages', { ...PRESETS.default, stages: ['a', 'a'] }],
      ['budget.usd', { ...PRESETS.default, budget: { usd: Number.POSITIVE_INFINITY } }],
      [
        'maxAdmitted',
        {
          ...PRESETS.default,
          severities: { major: { blocks: true, firstRoundOnly: false, maxAdmitted: -2 } },
        },
      ],
      ['mergeWithinLines', { ...PRESETS.default, mergeWithinLines: -3 }],
      ['experts', { ...PRESETS.default, experts: [''] }],
      ['name', { ...PRESETS.default, name: '' }],
      ['disputes.blockAfter', { ...PRESETS.default, disputes: { allowed: true, blockAfter: 0 } }],
    ];
    for (const [field, policy] of typed) {
      const opened = openWith(policy);
      expect(E.isLeft(opened) && [opened.left.code, opened.left.message.includes(field)]).toEqual([
        'invalid-policy',
        true,
      ]);
    }
    expect(E.isRight(openWith(PRESETS.default))).toBe(true);
  });
});
