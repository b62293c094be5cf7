import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import type { Cost } from '../../events/policy.js';
import { mayRunStage } from '../../projections/views/budget.js';
import { describeCost } from '../../projections/views/cost.js';
import { readIntactState } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { collect, parseCost } from '../inputs.js';

export const registerMay = (program: Command, io: Io): Command =>
  program
    .command('may')
    .description(
      'may this stage run now, at this cost, with these commands? Answers from the rules; writes nothing',
    )
    .argument('<run>', 'the run id')
    .option('--stage <stage>', 'the stage the driver wants to run')
    .option('--cost <cost>', 'what it expects to spend, e.g. tokens=20000,usd=0.30', parseCost)
    .option('--command <command>', 'a command it would run (repeatable)', collect)
    .addHelpText(
      'after',
      `${examples('clearance may pr-236 --stage experts --cost usd=1.20')}\nAnswers allowed: true or false (with the rule that refuses it), exit 0 either way: asking is not\nrefused. Exit 1 only when the run cannot be read (missing, damaged).`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: { stage?: string; cost?: Cost; command?: string[] }) => {
        if (opts.stage === undefined) throw new ClearanceError('usage', 'may needs --stage <stage>');
        const { state } = await readIntactState(ctx.store, runId);
        const answer = mayRunStage(state, opts.stage, opts.cost ?? {}, opts.command ?? []);
        const spent = `spent ${describeCost(answer.spent)} of ${describeCost(answer.budget)}`;
        const { rejection } = answer;
        return {
          json: {
            runId,
            stage: opts.stage,
            allowed: rejection === null,
            rejection: rejection === null ? null : { code: rejection.code, message: rejection.message },
            spent: answer.spent,
            budget: answer.budget,
          },
          text:
            rejection === null
              ? `may: stage ${opts.stage} fits (${spent})`
              : `may not: ${rejection.message} [${rejection.code}] (${spent})`,
        };
      }),
    );
