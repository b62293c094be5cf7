import type { Command } from 'commander';
import { recordReport } from '../../driver/record.js';
import { ClearanceError } from '../../errors.js';
import { action, examples } from '../action.js';
import { actorOf, type Io } from '../context.js';
import { parseJsonInput, parseNonNegativeInt, readTextInput } from '../inputs.js';
import { recordedOutcome } from '../recorded.js';

type Options = { report?: string; expectSeq?: number };

export const registerRecord = (program: Command, io: Io): Command =>
  program
    .command('record')
    .description('record a round report: checked against every rule, appended only if all hold')
    .argument('<run>', 'the run id')
    .option('--report <file>', 'the round report as JSON (- for standard input)')
    .option(
      '--expect-seq <n>',
      'refuse unless the log is at this seq (someone appended meanwhile)',
      parseNonNegativeInt,
    )
    .addHelpText(
      'after',
      examples(
        'clearance record pr-236 --report round-2.json',
        'reviewer | clearance record pr-236 --report - --json',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        if (opts.report === undefined) throw new ClearanceError('usage', 'record needs --report <file|->');
        const text = await readTextInput(opts.report, io, 'report');
        const report = parseJsonInput(
          text,
          opts.report,
          (m) => new ClearanceError('invalid-report', `invalid round report: ${m}`),
        );
        const result = await recordReport(ctx.dir, runId, report, {
          ...actorOf(ctx),
          ...(opts.expectSeq === undefined ? {} : { expectedSeq: opts.expectSeq }),
        });
        return recordedOutcome(ctx, runId, result);
      }),
    );
