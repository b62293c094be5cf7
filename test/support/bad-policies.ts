/**
 * A usable policy file and one broken copy per field: what each field may not hold, by its shape
 * (the schema's) or by its value (the rules'). Every door a policy comes through must refuse each
 * with `invalid-policy`, naming the field.
 */
export const USABLE_POLICY = {
  name: 'mine',
  maxRounds: 3,
  severities: { major: { blocks: true }, nit: { blocks: false, maxAdmitted: 2 } },
  stages: ['planning', 'experts'],
  budget: { tokens: 1000, usd: 1, seconds: 60 },
  mergeWithinLines: 3,
  experts: ['ada', 'bob'],
  blockingCategories: ['bug'],
  principleCategories: ['design'],
} as const;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** [what is wrong, the field a refusal must name, the broken policy]. */
export const BAD_POLICIES: ReadonlyArray<readonly [string, string, Record<string, Json>]> = (() => {
  const p = (over: Record<string, Json>): Record<string, Json> => ({
    ...(JSON.parse(JSON.stringify(USABLE_POLICY)) as Record<string, Json>),
    ...over,
  });
  return [
    ['an empty name', 'name', p({ name: ' ' })],
    ['a name that is not text', 'name', p({ name: 5 })],
    ['maxRounds 0', 'maxRounds', p({ maxRounds: 0 })],
    ['maxRounds past 1,000,000', 'maxRounds', p({ maxRounds: 1_000_001 })],
    ['a fractional maxRounds', 'maxRounds', p({ maxRounds: 2.5 })],
    ['maxRounds as text', 'maxRounds', p({ maxRounds: '4' })],
    ['no severity', 'severities', p({ severities: {} })],
    ['an empty severity name', 'severities', p({ severities: { '': { blocks: true } } })],
    ['a negative maxAdmitted', 'maxAdmitted', p({ severities: { nit: { blocks: false, maxAdmitted: -1 } } })],
    [
      'a fractional maxAdmitted',
      'maxAdmitted',
      p({ severities: { nit: { blocks: false, maxAdmitted: 1.5 } } }),
    ],
    ['blocks as text', 'blocks', p({ severities: { major: { blocks: 'yes' } } })],
    ['duplicate stages', 'stages', p({ stages: ['planning', 'planning'] })],
    ['an empty stage', 'stages', p({ stages: ['planning', ''] })],
    ['a negative token budget', 'budget.tokens', p({ budget: { tokens: -1 } })],
    ['a negative usd budget', 'budget.usd', p({ budget: { usd: -0.5 } })],
    ['seconds as text', 'budget.seconds', p({ budget: { seconds: '60' } })],
    ['an unknown budget unit', 'budget', p({ budget: { euros: 3 } })],
    ['a negative mergeWithinLines', 'mergeWithinLines', p({ mergeWithinLines: -1 })],
    ['a fractional mergeWithinLines', 'mergeWithinLines', p({ mergeWithinLines: 0.5 })],
    ['an empty expert', 'experts', p({ experts: ['ada', ''] })],
    ['an expert named twice', 'experts', p({ experts: ['ada', 'ada'] })],
    ['an empty blocking category', 'blockingCategories', p({ blockingCategories: [''] })],
    ['an empty principle category', 'principleCategories', p({ principleCategories: [' '] })],
    ['notExaminedRequired as text', 'notExaminedRequired', p({ notExaminedRequired: 'yes' })],
    ['an unknown untouched decision', 'untouchedDecisions', p({ untouchedDecisions: ['maybe'] })],
    ['an unknown citations mode', 'citations', p({ citations: 'always' })],
    ['an unknown binding', 'bind', p({ bind: 'branch' })],
    ['disputes blocking after 0', 'disputes.blockAfter', p({ disputes: { blockAfter: 0 } })],
    ['a fractional disputes.blockAfter', 'disputes.blockAfter', p({ disputes: { blockAfter: 1.5 } })],
    ['disputes.allowed as text', 'disputes.allowed', p({ disputes: { allowed: 'no' } })],
    ['an unknown disputes key', 'disputes', p({ disputes: { after: 2 } })],
    ['a misspelt key', 'maxround', p({ maxround: 3 })],
  ];
})();
