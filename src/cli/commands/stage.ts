import type { Cost } from '@clearance/fold/internal/events/policy.js';
import { describeCost } from '@clearance/fold/internal/render/cost-text.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { type StageResult, type StageStep, stage } from '../../operations/stage.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { maxBytesOption, readInput } from '../inputs.js';
import { collect, parseCost } from '../option-values.js';

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
        'clearance stage pr-236 experts --fail "reviewer 3 timed out" --cost seconds=600',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, name: string, opts: Options) => {
        const modes = [opts.start === true, opts.finish === true, opts.fail !== undefined].filter(
          Boolean,
        ).length;
        if (modes !== 1)
          throw new ClearanceError('usage', 'stage needs exactly one of --start, --finish or --fail');
        const runner = opts.runner === undefined ? {} : { runner: opts.runner };
        const cost = opts.cost === undefined ? {} : { cost: opts.cost };
        let step: StageStep;
        if (opts.start === true) {
          step = {
            kind: 'start',
            commands: opts.command ?? [],
            ...(opts.estimate === undefined ? {} : { estimate: opts.estimate }),
          };
        } else if (opts.finish === true) {
          if (opts.output === undefined)
            throw new ClearanceError(
              'usage',
              'stage --finish needs --output <file>: the output is archived with the event',
            );
          const output = await readInput(opts.output, io, 'stage output', opts.maxBytes);
          step = { kind: 'finish', output, ...cost, ...runner };
        } else step = { kind: 'fail', reason: opts.fail as string, ...cost, ...runner };
        const result = await stage(ctx, { runId, stage: name, step });
        return { json: result, text: stageText(result) };
      }),
    );

const stageText = (r: StageResult): string => {
  const head = `round ${r.round}: stage ${t(r.stage)}`;
  switch (r.event) {
    case 'stage.started':
      return `${head} started`;
    case 'stage.finished':
      return `${head} finished (output ${r.outputSha?.slice(0, 12)}…, ${describeCost(r.cost ?? {})}); spent so far: ${describeCost(r.spent ?? {})}`;
    case 'stage.failed':
      return `${head} failed (${t(r.reason ?? '')}); it will run again`;
  }
};
