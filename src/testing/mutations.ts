import fc from 'fast-check';
import { isFinal, type RunState } from '../projections/state.js';
import { BINDING_MUTATIONS } from './mutations/binding.js';
import { CANDIDATES_MUTATIONS } from './mutations/candidates.js';
import { CHECKS_MUTATIONS } from './mutations/checks.js';
import { CONTRIBUTIONS_MUTATIONS } from './mutations/contributions.js';
import { DECISIONS_MUTATIONS } from './mutations/decisions.js';
import { DISPUTES_MUTATIONS } from './mutations/disputes.js';
import { IDS_MUTATIONS } from './mutations/ids.js';
import { INPUT_MUTATIONS } from './mutations/input.js';
import { LIFECYCLE_MUTATIONS } from './mutations/lifecycle.js';
import { LINE_MOVES_MUTATIONS } from './mutations/line-moves.js';
import { REPRODUCTIONS_MUTATIONS } from './mutations/reproductions.js';
import { RUN_MUTATIONS } from './mutations/run.js';
import { type Context, type Mutation, type Offer, pickOf } from './offers.js';
import { buildRound, roundChoicesArb } from './rounds.js';

/**
 * The catalogue: every rejection code, and at least one way to reach it from a valid offer by a
 * single change. A property test asserts it names every code in REJECTION_CODES.
 */
export const MUTATIONS: ReadonlyArray<Mutation> = [
  ...RUN_MUTATIONS,
  ...BINDING_MUTATIONS,
  ...CANDIDATES_MUTATIONS,
  ...DECISIONS_MUTATIONS,
  ...DISPUTES_MUTATIONS,
  ...IDS_MUTATIONS,
  ...INPUT_MUTATIONS,
  ...LIFECYCLE_MUTATIONS,
  ...CONTRIBUTIONS_MUTATIONS,
  ...REPRODUCTIONS_MUTATIONS,
  ...CHECKS_MUTATIONS,
  ...LINE_MOVES_MUTATIONS,
];

export type InvalidOffer = Readonly<{ mutation: Mutation; offer: Offer }>;

/** An invalid offer against `state`: a valid one broken by one mutation drawn from the catalogue. */
export const invalidOfferArb = (state: RunState): fc.Arbitrary<InvalidOffer> => {
  const acceptsRounds = state.run !== null && !isFinal(state.status);
  return fc
    .record({ choices: roundChoicesArb, which: fc.nat(), pick: fc.nat() })
    .map(({ choices, which, pick }) => {
      const ctx: Context = { state, valid: acceptsRounds ? buildRound(state, choices, 'next') : null };
      // draw a code first, then one of its mutations, so rare rules are drawn as often as common ones
      const applicable = MUTATIONS.filter((m) => m.applies(ctx));
      const code = pickOf([...new Set(applicable.map((m) => m.code))], which);
      const mutation = pickOf(
        applicable.filter((m) => m.code === code),
        pick,
      );
      return { mutation, offer: mutation.apply(ctx, pick) };
    });
};
