import { eventJsonSchema } from '@clearance/fold/internal/events/event-schema.js';
import { reportJsonSchema } from '@clearance/fold/internal/events/round-report.js';
import { ClearanceError } from '../errors.js';
import type { ResultOf, SchemaOutput } from './schemas/results.js';

export type SchemaInput = Readonly<{ which: string; command?: string }>;
export type SchemaResult = ResultOf<typeof SchemaOutput>;

const INPUT_SCHEMAS = { report: reportJsonSchema, event: eventJsonSchema } as const;

/** A JSON Schema: `report` (what a reviewer hands in), `event` (one log line), `output <command>`. */
export const schema = async (input: SchemaInput): Promise<SchemaResult> => {
  const { which, command } = input;
  if (which === 'report' || which === 'event') {
    if (command !== undefined)
      throw new ClearanceError(
        'usage',
        `schema ${which} takes no command; did you mean schema output ${command}?`,
      );
    return { schema: which, jsonSchema: INPUT_SCHEMAS[which]() };
  }
  if (which === 'attestation') {
    if (command !== undefined) throw new ClearanceError('usage', 'schema attestation takes no command');
    const { attestationJsonSchema } = await import('./schemas/attestation.js');
    return { schema: which, jsonSchema: attestationJsonSchema() };
  }
  if (which !== 'output')
    throw new ClearanceError(
      'usage',
      `unknown schema ${JSON.stringify(which)}: use report, event, attestation or output <command>`,
    );
  // loaded only here: no other operation pays for building the output contracts
  const { OUTPUT_NAMES, isOutputName, outputJsonSchema } = await import('./schemas/index.js');
  if (command === undefined || !isOutputName(command)) {
    throw new ClearanceError(
      'usage',
      `schema output needs a command, one of: ${OUTPUT_NAMES.join(', ')}${command === undefined ? '' : ` (got ${JSON.stringify(command)})`}`,
      { choices: OUTPUT_NAMES },
    );
  }
  return { schema: `output ${command}`, jsonSchema: outputJsonSchema(command) };
};
