import type { FindingStatus } from '@clearance/fold/internal/projections/state.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import { type Command, Option } from 'commander';
import { findings } from '../../operations/run-views.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { findingLine } from '../format.js';
import { githubOutcome } from '../github-format.js';

export const registerFindings = (program: Command, io: Io): Command =>
  program
    .command('findings')
    .description('list the findings of a run, in the order they opened')
    .argument('<run>', 'the run id')
    .addOption(
      new Option('--status <status>', 'only findings with this status').choices([
        'open',
        'fixed',
        'withdrawn',
      ]),
    )
    .addHelpText(
      'after',
      examples(
        'clearance findings pr-236 --status open',
        'clearance findings pr-236 --json',
        'clearance findings pr-236 --format github   # open findings as annotations (10 per level)',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: { status?: FindingStatus }) => {
        const filter = opts.status === undefined ? {} : { status: opts.status };
        const listed = await findings(ctx, { runId, ...filter });
        const shown = {
          json: listed,
          text:
            listed.findings.length === 0
              ? `no ${opts.status ?? ''} findings in ${t(runId)}`.replace('  ', ' ')
              : listed.findings.map((f) => findingLine(ctx.color, f)).join('\n'),
        };
        return ctx.format === 'github' && !ctx.json
          ? githubOutcome(
              ctx,
              { runId, ...(opts.status === undefined ? {} : { findings: opts.status }) },
              shown,
            )
          : shown;
      }),
    );
