/**
 * The schemas at the door, in one module: what `@clearance/fold/schemas` offers, loaded by it only
 * once it knows zod is there. Each is zod, for untrusted input (the log is read with io-ts); a
 * policy is checked for its values too (`parsePolicy`).
 */
export { EventLineSchema, eventJsonSchema } from '../events/event-schema.js';
export { PolicySchema } from '../events/policy-schema.js';
export {
  CandidateSchema,
  DecisionSchema,
  parseReport,
  ReportSchema,
  reportJsonSchema,
  VerificationSchema,
} from '../events/round-report.js';
export { parsePolicy } from './parse-policy.js';
