import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { eventJsonSchema } from '../../events/event-schema.js';
import { reportJsonSchema } from '../../events/report.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

const SCHEMAS = { report: reportJsonSchema, event: eventJsonSchema } as const;

export const registerSchema = (program: Command, io: Io): Command =>
  program
    .command('schema')
    .description('print a JSON Schema: `report` (what a reviewer hands in) or `event` (one log line)')
    .argument('<which>', 'report or event')
    .addHelpText(
      'after',
      examples('clearance schema report > round-report.schema.json', 'clearance schema event --json'),
    )
    .action(
      action(io, async (_ctx, which: string) => {
        if (which !== 'report' && which !== 'event') {
          throw new ClearanceError('usage', `unknown schema ${JSON.stringify(which)}: use report or event`);
        }
        const schema = SCHEMAS[which]();
        return { json: { schema: which, jsonSchema: schema }, text: JSON.stringify(schema, null, 2) };
      }),
    );
