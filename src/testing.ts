/**
 * `@clearance/fold/testing`: fast-check arbitraries for fuzzing clearance's transition rules, or
 * for testing a tool that embeds the fold, and `specification(decider)`. See docs/embedding.md.
 *
 * fast-check and zod are optional peers of the fold, needed only here. Loading this entry without
 * them says which to install, instead of Node's bare "Cannot find package": the modules that need
 * them are imported only after that check (a static import would fail before any of this ran).
 */
import type * as Entry from './testing/entry.js';

const PEERS = ['fast-check', 'zod'] as const;

/** Whether a package resolves from here: what a missing peer does not. */
const resolves = (peer: string): boolean => {
  try {
    import.meta.resolve(peer);
    return true;
  } catch {
    return false;
  }
};

const load = async (): Promise<typeof Entry> => {
  try {
    return await import('./testing/entry.js');
  } catch (e) {
    const missing = PEERS.filter((peer) => !resolves(peer));
    if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || missing.length === 0) throw e;
    throw new Error(
      `@clearance/fold/testing needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed: npm install --save-dev ${PEERS.join(' ')}`,
    );
  }
};

const testing = await load();

export const {
  invalidOfferArb,
  MUTATIONS,
  offerTo,
  customPolicyArb,
  policyArb,
  buildRound,
  FILES,
  roundChoicesArb,
  roundEvents,
  validRoundArb,
  RUN_ID,
  reachableRunArb,
  runFrom,
  deepFreeze,
  specification,
} = testing;

export type {
  BuiltRound,
  Context,
  GeneratedRun,
  Given,
  InvalidOffer,
  Mutation,
  Offer,
  RoundChoices,
  Specification,
  Then,
} from './testing/entry.js';
