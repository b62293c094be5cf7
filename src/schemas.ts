/**
 * `@clearance/fold/schemas`: the schemas at the door, for a tool that takes untrusted input (a
 * reviewer's JSON, a policy file) before handing it to the decider: `parseReport`, `parsePolicy`,
 * their zod schemas, and the JSON Schemas `clearance schema report` and `schema event` publish.
 *
 * zod is an optional peer of the fold, needed only here (and by the testing entry): loading this
 * entry without it says to install it, instead of Node's bare "Cannot find package".
 */
import type * as Door from './projections/door-schemas.js';

const load = async (): Promise<typeof Door> => {
  try {
    return await import('./projections/door-schemas.js');
  } catch (e) {
    if (
      (e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' ||
      !(e as Error).message.includes("'zod'")
    )
      throw e;
    throw new Error('@clearance/fold/schemas needs zod, which is not installed: npm install zod');
  }
};

const door = await load();

export const {
  EventLineSchema,
  eventJsonSchema,
  PolicySchema,
  CandidateSchema,
  DecisionSchema,
  parseReport,
  ReportSchema,
  reportJsonSchema,
  VerificationSchema,
  parsePolicy,
} = door;
