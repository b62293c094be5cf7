import { jsonText, plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { sarif } from '../../operations/artifacts.js';
import { writeOutputFile } from '../../operations/write-output.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { parsePositiveInt } from '../option-values.js';

export const registerSarif = (program: Command, io: Io): Command =>
  program
    .command('sarif')
    .description(
      'the findings of a round as SARIF 2.1.0 for code scanning: fingerprints are finding ids, compared with the round before',
    )
    .argument('<run>', 'the run id')
    .option('--round <n>', 'the round (default: the last that ended)', parsePositiveInt)
    .option('--output <file>', 'write the SARIF log to <file> instead of stdout')
    .addHelpText(
      'after',
      `${examples(
        'clearance sarif pr-236 > clearance.sarif',
        'clearance sarif pr-236 --round 1 | jq ".runs[0].results | length"',
        'clearance sarif pr-236 --output clearance.sarif --format github',
      )}
Prints the SARIF log on stdout, or writes it to --output (under --json: {"ok":true,"runId","round","sarif":{…}}).`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: { round?: number; output?: string }) => {
        const result = await sarif(ctx, {
          runId,
          ...(opts.round === undefined ? {} : { round: opts.round }),
        });
        if (opts.output === undefined) return { json: result, text: jsonText(result.sarif, 2) };
        await writeOutputFile(
          opts.output,
          `${jsonText(result.sarif, 2)}\n`,
          'write',
          'the SARIF log (--output)',
        );
        return {
          json: result,
          text: `wrote the SARIF log of ${t(runId)} round ${result.round} to ${t(opts.output)}`,
        };
      }),
    );
