import { jsonText } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { printableLocation } from '../../handoff/at.js';
import { resolveBudget } from '../../handoff/wait-budget.js';
import { wait } from '../../operations/reports.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { parsePositiveInt } from '../option-values.js';
import { withSpinner } from '../spinner.js';
import { type WaitFlags, waitOptionsOf, withWaitFlags } from '../wait-options.js';

type Options = WaitFlags & { run?: string; round?: number; inputSha?: string };

export const registerWait = (program: Command, io: Io): Command =>
  withWaitFlags(
    program
      .command('wait')
      .description(
        'wait for the complete report of one run, round and input to be published at <path>, and print it',
      )
      .argument('<path>', 'where the producer publishes the report: a file path, or a postgres://… store URL')
      .option('--run <run>', 'the run the report must belong to')
      .option('--round <n>', 'the round it must answer', parsePositiveInt)
      .option('--input-sha <sha>', 'the input it must have reviewed'),
  )
    .addHelpText(
      'after',
      `${examples('clearance wait review/round-2.json --run pr-236 --round 2 --input-sha c577f1fe --timeout-ms 600000')}
Exit 0 with the report, 3 when the deadline passes, 4 when a matching report is incomplete, malformed or oversized.
A report of another run, round or input is ignored: waiting goes on.`,
    )
    .action(
      action(io, async (ctx, path: string, opts: Options) => {
        const { run, round, inputSha } = opts;
        if (run === undefined || round === undefined || inputSha === undefined) {
          throw new ClearanceError(
            'usage',
            'wait needs --run, --round and --input-sha: the report is bound to all three',
          );
        }
        const options = waitOptionsOf(opts);
        const collected = await withSpinner(
          io,
          ctx.json,
          `waiting for ${printableLocation(path)}`,
          resolveBudget(options).timeoutMs,
          (signal) => wait({ signal }, { path, runId: run, round, inputSha, wait: options }),
        );
        return { json: collected, text: jsonText(collected.report, 2) };
      }),
    );
