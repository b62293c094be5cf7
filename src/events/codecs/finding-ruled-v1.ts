import * as t from 'io-ts';

/** A person ruled a finding fixed or withdrawn, and why. Never edit: add a version. */
export const FindingRuledV1 = t.type({
  findingId: t.string,
  status: t.keyof({ fixed: null, withdrawn: null }),
  why: t.string,
  by: t.string,
});
