import fc from 'fast-check';
import {
  type ChecksPolicy,
  DEFAULT_STAGES,
  NEW_OUTSIDE_FIX_POLICIES,
  type Policy,
  PRESETS,
  type SeverityRule,
} from '../events/policy.js';
import { OPEN_FINDING_DECISIONS } from '../events/round-report.js';
import { CATEGORIES } from './rounds.js';

const SEVERITY_NAMES = ['major', 'nit', 'critical', 'high', 'medium', 'low'] as const;

/** A severity's admission: round 1 only, until a round (a rising floor), or every round; perhaps capped. */
const severityRuleArb: fc.Arbitrary<SeverityRule> = fc
  .record({
    blocks: fc.boolean(),
    firstRoundOnly: fc.boolean(),
    maxAdmitted: fc.option(fc.nat({ max: 4 }), { nil: null }),
    untilRound: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 2 }),
  })
  .map(({ untilRound, ...rule }) =>
    untilRound === undefined || rule.firstRoundOnly ? rule : { ...rule, untilRound },
  );

/**
 * Custom policies: 1..5 rounds, 1..4 severities with random admission rules, some of the
 * standard stages, sometimes a token budget small enough to run out, category rules, half the
 * time stalls caught early (`stallRounds` 2 or 3), half the time CI checks, and sometimes rounds
 * allowed on unchanged input, a rule for new candidates outside the fix, and disputes off or
 * blocking after another count.
 */
const customPolicyFieldsArb = fc.record({
  name: fc.constant('custom'),
  maxRounds: fc.integer({ min: 1, max: 6 }),
  severities: fc
    .uniqueArray(fc.constantFrom(...SEVERITY_NAMES), { minLength: 1, maxLength: 4 })
    .chain((names) =>
      fc
        .array(severityRuleArb, { minLength: names.length, maxLength: names.length })
        .map((rules) => Object.fromEntries(names.map((n, i) => [n, rules[i] as SeverityRule]))),
    ),
  notExaminedRequired: fc.boolean(),
  untouchedDecisions: fc.subarray([...OPEN_FINDING_DECISIONS]),
  citations: fc.constantFrom('required', 'optional'),
  stages: fc.subarray([...DEFAULT_STAGES]),
  budget: fc.oneof(fc.constant({}), fc.record({ tokens: fc.integer({ min: 0, max: 250 }) })),
  blockingCategories: fc.option(fc.subarray([...CATEGORIES], { minLength: 1 }), { nil: null, freq: 2 }),
  principleCategories: fc.constantFrom([], ['design']),
  sameInputRounds: fc.option(fc.nat({ max: 2 }), { nil: undefined }),
  newOutsideFix: fc.option(fc.constantFrom(...NEW_OUTSIDE_FIX_POLICIES), { nil: undefined }),
  /** absent (allowed, after 2) most often; sometimes off, sometimes blocking after 1 or 3 */
  disputes: fc.option(fc.record({ allowed: fc.boolean(), blockAfter: fc.integer({ min: 1, max: 3 }) }), {
    nil: undefined,
    freq: 2,
  }),
});

/**
 * The public key a generated policy pins for Ada, when it pins signers (its private key is nobody's:
 * no generated ruling is signed, so under such a policy a blocked run waits for a person, and an
 * unsigned ruling is an invalid offer).
 */
export const TEST_SIGNER = {
  principal: 'Ada',
  key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPIyi49P+4ydJJ03hnMeqgDgSkrBVS/UzjBqmIebdm9y',
} as const;

/** The CI checks generated policies name: few, so required, optional and skipped ones mix. */
export const CHECK_NAMES = ['test', 'lint', 'docs', 'build'] as const;

/**
 * A policy's `checks`: each name required, optional or neither, and some of the named ones
 * expected skips. Required may be empty (then rounds and the gate ask for no checks).
 */
export const checksPolicyArb: fc.Arbitrary<ChecksPolicy> = fc
  .tuple(
    fc.array(fc.constantFrom('required', 'optional', 'unnamed'), {
      minLength: CHECK_NAMES.length,
      maxLength: CHECK_NAMES.length,
    }),
    fc.array(fc.boolean(), { minLength: CHECK_NAMES.length, maxLength: CHECK_NAMES.length }),
  )
  .map(([roles, skips]) => {
    const named = (role: string) => CHECK_NAMES.filter((_, i) => roles[i] === role);
    return {
      required: named('required'),
      optional: named('optional'),
      expectedSkips: CHECK_NAMES.filter((_, i) => roles[i] !== 'unnamed' && skips[i] === true),
    };
  });

export const customPolicyArb: fc.Arbitrary<Policy> = fc
  .tuple(
    customPolicyFieldsArb,
    fc.option(fc.integer({ min: 2, max: 3 }), { nil: undefined }),
    fc.boolean(),
    fc.option(checksPolicyArb, { nil: undefined }),
  )
  .map(
    ([{ sameInputRounds, newOutsideFix, disputes, ...policy }, stallRounds, signed, checks]): Policy => ({
      ...policy,
      ...(disputes === undefined ? {} : { disputes }),
      ...(sameInputRounds === undefined ? {} : { sameInputRounds }),
      ...(newOutsideFix === undefined ? {} : { newOutsideFix }),
      ...(stallRounds === undefined ? {} : { stallRounds }),
      ...(signed ? { signers: [TEST_SIGNER] } : {}),
      ...(checks === undefined ? {} : { checks }),
    }),
  );

/** A preset or a random custom policy. */
export const policyArb: fc.Arbitrary<Policy> = fc.oneof(
  fc.constantFrom<Policy>(...Object.values(PRESETS)),
  customPolicyArb,
);
