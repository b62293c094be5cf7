/**
 * `@clearance/fold/schemas`: the schemas at the door, for a tool that takes untrusted input (a
 * reviewer's JSON, a policy file) before handing it to the decider: `parseReport`, `parsePolicy`,
 * their zod schemas, and the JSON Schemas `clearance schema report` and `schema event` publish.
 * They are zod, an optional peer of the fold, needed only here (and by the testing entry); the log
 * is read with io-ts, and the fold's main entry never loads zod.
 */
export { EventLineSchema, eventJsonSchema } from './events/event-schema.js';
export { PolicySchema } from './events/policy-schema.js';
export {
  CandidateSchema,
  DecisionSchema,
  parseReport,
  ReportSchema,
  reportJsonSchema,
  VerificationSchema,
} from './events/round-report.js';
export { parsePolicy } from './projections/parse-policy.js';
