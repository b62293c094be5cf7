import type { Command } from 'commander';
import { failStage, finishStage, startStage } from '../../driver/lifecycle.js';
import { ClearanceError } from '../../errors.js';
import type { Cost } from '../../events/policy.js';
import { describeCost } from '../../projections/views/cost.js';
import { action, examples } from '../action.js';
import { actorOf, type Io } from '../context.js';
import { collect, maxBytesOption, parseCost, readInput } from '../inputs.js';

type Options = {
  start?: boolean;
  finish?: boolean;
  fail?: string;
  command?: string[];
  estimate?: Cost;
  output?: string;
  cost?: Cost;
  runner?: string;
  maxBytes?: number;
};

export const registerStage = (program: Command, io: Io): Command =>
  program
    .command('stage')
    .description(
      'record a stage of the round in progress: it started, it finished (its output archived), or it failed',
    )
    .argument('<run>', 'the run id')
    .argument('<stage>', "a stage of the run's policy (default: planning, experts, verify, summarize)")
    .option('--start', 'the stage starts: its commands and estimate are checked against consent and budget')
    .option('--command <command>', 'with --start: a command the stage will run (repeatable)', collect)
    .option(
      '--estimate <cost>',
      'with --start: what it expects to spend, e.g. tokens=20000,usd=0.30',
      parseCost,
    )
    .option('--finish', 'the stage finished; give its --output')
    .option(
      '--output <file>',
      'with --finish: the stage output, archived under the run by its SHA-256 (- for standard input)',
    )
    .addOption(maxBytesOption())
    .option('--fail <reason>', 'the stage failed: it will run again')
    .option(
      '--cost <cost>',
      'with --finish or --fail: what it spent, e.g. tokens=18250,usd=0.27,seconds=95',
      parseCost,
    )
    .option(
      '--runner <name>',
      'with --finish or --fail: who ran it (an agent, a model, a person); default --by',
    )
    .addHelpText(
      'after',
      examples(
        'clearance stage pr-236 planning --start',
        'clearance stage pr-236 planning --finish --output plan.json --cost tokens=12000,usd=0.18 --runner planner',
        'clearance stage pr-236 verify --start --command "npm test" --estimate usd=0.50',
        'clearance stage pr-236 experts --fail "expert 3 timed out" --cost seconds=600',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, stage: string, opts: Options) => {
        const modes = [opts.start === true, opts.finish === true, opts.fail !== undefined].filter(
          Boolean,
        ).length;
        if (modes !== 1)
          throw new ClearanceError('usage', 'stage needs exactly one of --start, --finish or --fail');
        const runner = opts.runner ?? ctx.by;
        const actor = actorOf(ctx);
        if (opts.start === true) {
          const result = await startStage(
            ctx.dir,
            runId,
            {
              stage,
              commands: opts.command ?? [],
              ...(opts.estimate === undefined ? {} : { estimate: opts.estimate }),
            },
            actor,
          );
          const round = result.folded.state.round + 1;
          return {
            json: { runId, round, stage, event: 'stage.started', seq: result.appended[0]?.seq ?? null },
            text: `round ${round}: stage ${stage} started`,
          };
        }
        if (opts.finish === true) {
          if (opts.output === undefined)
            throw new ClearanceError(
              'usage',
              'stage --finish needs --output <file>: the output is archived with the event',
            );
          const output = await readInput(opts.output, io, 'stage output', opts.maxBytes);
          const result = await finishStage(
            ctx.dir,
            runId,
            { stage, output, runner, ...(opts.cost === undefined ? {} : { cost: opts.cost }) },
            actor,
          );
          const event = result.appended[0];
          const outputSha = event?.type === 'stage.finished' ? event.data.outputSha : null;
          const round = result.folded.state.round + 1;
          return {
            json: {
              runId,
              round,
              stage,
              event: 'stage.finished',
              outputSha,
              seq: event?.seq ?? null,
              spent: result.folded.state.spent,
            },
            text: `round ${round}: stage ${stage} finished (output ${outputSha?.slice(0, 12)}…, ${describeCost(opts.cost ?? {})}); spent so far: ${describeCost(result.folded.state.spent)}`,
          };
        }
        const result = await failStage(
          ctx.dir,
          runId,
          {
            stage,
            reason: opts.fail as string,
            runner,
            ...(opts.cost === undefined ? {} : { cost: opts.cost }),
          },
          actor,
        );
        const round = result.folded.state.round + 1;
        return {
          json: { runId, round, stage, event: 'stage.failed', seq: result.appended[0]?.seq ?? null },
          text: `round ${round}: stage ${stage} failed (${opts.fail}); it will run again`,
        };
      }),
    );
