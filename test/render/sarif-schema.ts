import { createRequire } from 'node:module';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

/**
 * The official SARIF 2.1.0 JSON Schema (2.1.0-rtm.5, the one code scanning documents), as the
 * MIT-licensed @microsoft/jest-sarif package ships it. It is draft-04, hence ajv's draft-04 class;
 * one of its patterns is not valid as a Unicode regular expression, hence `unicodeRegExp: false`.
 */
const require = createRequire(import.meta.url);
const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;
// both are CommonJS modules: imported from ESM, their function is also their `default` property
const Ajv = AjvDraft04.default;
const addFormats = ajvFormats.default;

const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** The schema's complaints about a SARIF log, as readable lines; empty when it is valid. */
export const sarifSchemaErrors = (log: unknown): string[] =>
  validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
