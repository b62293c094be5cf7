import type { Command } from 'commander';
import { schema } from '../../operations/schema.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerSchema = (program: Command, io: Io): Command =>
  program
    .command('schema')
    .description(
      'print a JSON Schema: `report` (what a reviewer hands in), `event` (one log line), `attestation` (what clearance attest signs) or `output <command>` (what a command prints under --json)',
    )
    .argument('<which>', 'report, event, attestation or output')
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
        const result = await schema({ which, ...(command === undefined ? {} : { command }) });
        return { json: result, text: JSON.stringify(result.jsonSchema, null, 2) };
      }),
    );
