import * as t from 'io-ts';

/** A person granted a run more rounds, and why. Never edit: add a version. */
export const RoundsExtendedV1 = t.type({ rounds: t.number, why: t.string, by: t.string });
