/**
 * What `@clearance/fold/testing` offers, loaded by `src/testing.ts` only once it knows fast-check
 * and zod are there: fast-check arbitraries for fuzzing the transition rules, the mutation
 * catalogue, and the given/when/then specification of a decider.
 */
export { type InvalidOffer, invalidOfferArb, MUTATIONS } from './mutations.js';
export { type Context, type Mutation, type Offer, offerTo } from './offers.js';
export { customPolicyArb, policyArb } from './policies.js';
export {
  type BuiltRound,
  buildRound,
  FILES,
  type RoundChoices,
  roundChoicesArb,
  roundEvents,
  validRoundArb,
} from './rounds.js';
export { type GeneratedRun, RUN_ID, reachableRunArb, runFrom } from './runs.js';
export { deepFreeze, type Given, type Specification, specification, type Then } from './spec.js';
