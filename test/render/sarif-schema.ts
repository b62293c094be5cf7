import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

/**
 * The OASIS SARIF 2.1.0 JSON Schema (the OASIS Standard with errata 01), kept byte for byte beside
 * the other fixtures; NOTICE.md there says where it came from. Loading checks its sha256, so an
 * edited or swapped copy fails every SARIF test instead of validating against something else.
 *
 * It is draft-04, hence ajv's draft-04 class. Strict, so a keyword ajv does not know fails the
 * compile instead of being skipped, except `strictRequired`: the schema's `anyOf` branches
 * (`{ "required": ["startLine"] }`, …) name properties declared beside them, as draft-04 allows.
 */
export const SARIF_SCHEMA_FILE = fileURLToPath(
  new URL('../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url),
);
export const SARIF_SCHEMA_SHA256 = 'c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e';

const readSchema = (): Buffer => {
  try {
    return readFileSync(SARIF_SCHEMA_FILE);
  } catch (cause) {
    throw new Error(`${SARIF_SCHEMA_FILE} is missing: NOTICE.md beside it says which file it is`, {
      cause,
    });
  }
};
const bytes = readSchema();
const digest = createHash('sha256').update(bytes).digest('hex');
if (digest !== SARIF_SCHEMA_SHA256)
  throw new Error(
    `${SARIF_SCHEMA_FILE} has sha256 ${digest}, not ${SARIF_SCHEMA_SHA256}: restore the OASIS file byte for byte`,
  );
const schema = JSON.parse(bytes.toString('utf8')) as { $schema: string; id: string };

/** The schema's own `id` (draft-04 spells it without `$`): where OASIS publishes it. */
export const sarifSchemaId = schema.id;
/** The JSON Schema draft it is written in. */
export const sarifSchemaDraft = schema.$schema;

// both are CommonJS modules: imported from ESM, their function is also their `default` property
const Ajv = AjvDraft04.default;
const addFormats = ajvFormats.default;

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
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
