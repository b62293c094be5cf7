import type { RoundReport } from '../../src/index.js';
import { deepFreeze, type Given, specification } from '../../src/testing/spec.js';
import { resolved } from './builders.js';
import { decider } from './decider.js';

export { deepFreeze };

type CitedGiven = Given & Readonly<{ whenCited: (offer: RoundReport) => ReturnType<Given['whenReport']> }>;

/**
 * The shipped specification (`clearance/testing`'s given/when/then), with one step more for these
 * tests: `whenCited` offers a report whose every citation resolved, as `clearance record` finds
 * with git. A file that asserts which rejection codes it reached makes its own, so that its
 * `rejectionsSeen` holds only its own.
 */
export const citedSpecification = () => {
  const spec = specification(decider);
  const given = (...events: Parameters<typeof spec.given>): CitedGiven => {
    const g = spec.given(...events);
    return { ...g, whenCited: (offer) => g.whenReport(offer, resolved(offer)) };
  };
  return { given, rejectionsSeen: spec.rejectionsSeen };
};

export const { given } = citedSpecification();
