import { type Command, Option } from 'commander';
import { ClearanceError } from '../../errors.js';
import { reproduce } from '../../operations/reproduce.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { maxBytesOption, readInput } from '../inputs.js';

type Options = { stillFails?: boolean; noLongerFails?: boolean; output?: string; maxBytes?: number };

/**
 * Commander reads any `--no-X` flag as the negation of `--X` (default true); this one is a flag of
 * its own, off unless given, so it is unmarked as a negation.
 */
const noLongerFailsOption = (): Option => {
  const option = new Option('--no-longer-fails', 'the problem is gone');
  option.negate = false;
  return option;
};

export const registerReproduce = (program: Command, io: Io): Command =>
  program
    .command('reproduce')
    .description(
      "record what a finding's reproduction did when re-run on the input captured for the round in progress: it still fails, or it no longer fails",
    )
    .argument('<run>', 'the run id')
    .argument('<finding>', 'the finding id, or a unique prefix of at least 8 hex characters')
    .option('--still-fails', 'the problem is still there: a fixed decision on it is refused for this input')
    .addOption(noLongerFailsOption())
    .option(
      '--output <file>',
      'what the reproduction printed, archived under the run by its SHA-256 (- for standard input)',
    )
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      `${examples(
        'clearance next pr-236 --json | jq ".reproductions[] | {findingId, command}"',
        'npm test -- src/service.test.js > repro.txt 2>&1; clearance reproduce pr-236 827f9ded38b8 --still-fails --output repro.txt',
        'clearance reproduce pr-236 827f9ded38b8 --no-longer-fails',
      )}
Each finding's reproduction takes one outcome per captured input; the same outcome again is "already
recorded" (exit 0), the other one is refused. Capture a new input to run it again.`,
    )
    .action(
      action(io, async (ctx, runId: string, finding: string, opts: Options) => {
        const noLongerFails = opts.noLongerFails === true;
        if ((opts.stillFails === true) === noLongerFails)
          throw new ClearanceError(
            'usage',
            'reproduce needs exactly one of --still-fails or --no-longer-fails',
          );
        const output =
          opts.output === undefined
            ? undefined
            : await readInput(opts.output, io, 'reproduction output', opts.maxBytes);
        const r = await reproduce(ctx, {
          runId,
          finding,
          outcome: noLongerFails ? 'no-longer-fails' : 'still-fails',
          ...(output === undefined ? {} : { output }),
        });
        const said = r.outcome === 'still-fails' ? 'still fails' : 'no longer fails';
        return {
          json: r,
          text: `${r.alreadyRecorded ? 'already recorded: ' : ''}the reproduction of ${r.findingId.slice(0, 12)} ${said} on round ${r.round}'s input; ${r.pending === 0 ? 'every reproduction has been re-run' : `${r.pending} reproduction(s) still to re-run`}`,
        };
      }),
    );
