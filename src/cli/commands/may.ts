import type { Cost } from '@clearance/fold/internal/events/policy.js';
import { describeCost } from '@clearance/fold/internal/render/cost-text.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { may } from '../../operations/run-views.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { collect, parseCost } from '../option-values.js';

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
      `${examples(
        'clearance may pr-236 --stage experts --cost usd=1.20',
        'clearance may pr-236 --stage verify --command "npm test" --json >/dev/null && npm test',
      )}
Exit 0 when allowed, 1 when not (as test and grep -q answer), so \`clearance may … && run-it\`
runs it only when it may; either way one answer is printed (under --json: "allowed": true or
false, with the rule that refuses it). Exit 1 also when the run cannot be read (missing,
damaged): then the answer is the error.`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: { stage?: string; cost?: Cost; command?: string[] }) => {
        if (opts.stage === undefined) throw new ClearanceError('usage', 'may needs --stage <stage>');
        const answer = await may(ctx, {
          runId,
          stage: opts.stage,
          ...(opts.cost === undefined ? {} : { cost: opts.cost }),
          ...(opts.command === undefined ? {} : { commands: opts.command }),
        });
        const spent = `spent ${describeCost(answer.spent)} of ${describeCost(answer.budget)}`;
        const { rejection } = answer;
        return {
          json: answer,
          text:
            rejection === null
              ? `may: stage ${t(answer.stage)} fits (${spent})`
              : `may not: ${t(rejection.message)} [${rejection.code}] (${spent})`,
          exit: answer.allowed ? EXIT.ok : EXIT.refused,
        };
      }),
    );
