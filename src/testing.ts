/**
 * `clearance/testing`: fast-check arbitraries for fuzzing clearance's transition rules, or for
 * testing a tool that embeds the fold. See docs/embedding.md.
 */
export { type InvalidOffer, invalidOfferArb, MUTATIONS } from './testing/mutations.js';
export { type Context, type Mutation, type Offer, offerTo } from './testing/offers.js';
export { customPolicyArb, policyArb } from './testing/policies.js';
export {
  type BuiltRound,
  buildRound,
  FILES,
  type RoundChoices,
  roundChoicesArb,
  roundEvents,
  validRoundArb,
} from './testing/rounds.js';
export { type GeneratedRun, RUN_ID, reachableRunArb, runFrom } from './testing/runs.js';
export { deepFreeze, type Given, type Specification, specification, type Then } from './testing/spec.js';
