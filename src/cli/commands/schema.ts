import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { eventJsonSchema } from '../../events/event-schema.js';
import { reportJsonSchema } from '../../events/report.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

const INPUT_SCHEMAS = { report: reportJsonSchema, event: eventJsonSchema } as const;

const schemaOf = async (which: string, command: string | undefined): Promise<Record<string, unknown>> => {
  if (which === 'report' || which === 'event') {
    if (command !== undefined)
      throw new ClearanceError(
        'usage',
        `schema ${which} takes no command; did you mean schema output ${command}?`,
      );
    return INPUT_SCHEMAS[which]();
  }
  if (which !== 'output')
    throw new ClearanceError(
      'usage',
      `unknown schema ${JSON.stringify(which)}: use report, event or output <command>`,
    );
  // loaded only here: no other command pays for building the output contracts
  const { OUTPUT_NAMES, isOutputName, outputJsonSchema } = await import('../output-schemas/index.js');
  if (command === undefined || !isOutputName(command)) {
    throw new ClearanceError(
      'usage',
      `schema output needs a command, one of: ${OUTPUT_NAMES.join(', ')}${command === undefined ? '' : ` (got ${JSON.stringify(command)})`}`,
      { choices: OUTPUT_NAMES },
    );
  }
  return outputJsonSchema(command);
};

export const registerSchema = (program: Command, io: Io): Command =>
  program
    .command('schema')
    .description(
      'print a JSON Schema: `report` (what a reviewer hands in), `event` (one log line) or `output <command>` (what a command prints under --json)',
    )
    .argument('<which>', 'report, event or output')
    .argument(
      '[command]',
      'for output: the command (help and version name --json --help and --json --version)',
    )
    .addHelpText(
      'after',
      `${examples(
        'clearance schema report > round-report.schema.json',
        'clearance schema event --json',
        'clearance schema output status > status-output.schema.json',
      )}
An output schema is the command's success object ({"ok":true,…}) or the one failure envelope
({"ok":false,"error":{"code","message","details"}}) every command prints when it refuses.`,
    )
    .action(
      action(io, async (_ctx, which: string, command: string | undefined) => {
        const schema = await schemaOf(which, command);
        const name = which === 'output' ? `output ${command}` : which;
        return { json: { schema: name, jsonSchema: schema }, text: JSON.stringify(schema, null, 2) };
      }),
    );
