import { createRequire } from 'node:module';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

/**
 * The SARIF 2.1.0 JSON Schema the tests validate every SARIF log against: 2.1.0-rtm.5, the one
 * code scanning documents, as the MIT-licensed @microsoft/jest-sarif package ships it. It is
 * draft-04, hence ajv's draft-04 class; one of its patterns is not valid as a Unicode regular
 * expression, hence `unicodeRegExp: false`.
 *
 * The OASIS Standard's own file (errata 01, `id`
 * https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json,
 * 112,768 bytes, sha256 c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e) is the
 * one to validate against. No package this project may install ships it unmodified, and a copy
 * from elsewhere cannot be committed here; every log the tests write was checked against it by
 * hand and passes. To switch, put that file (its sha256 above) under test/fixtures/sarif/ and load
 * it here instead, with ajv's `strict: true, strictRequired: false` (its anyOf branches name
 * properties declared beside them, as draft-04 allows).
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
  validate(log)
    ? []
    : (validate.errors ?? []).map(
        (e) =>
          `${e.instancePath || '/'} ${e.message ?? ''}${'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''}`,
      );
