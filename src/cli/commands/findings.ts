import { type Command, Option } from 'commander';
import type { FindingStatus } from '../../projections/state.js';
import { findingsOf, findingView } from '../../projections/views/findings.js';
import { readIntactRunState } from '../../store/read.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { findingLine } from '../format.js';
import { formatOption, githubOutput, type OutputFormat, verdictAnnotation } from '../github-format.js';

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
    .addOption(formatOption())
    .addHelpText(
      'after',
      examples(
        'clearance findings pr-236 --status open',
        'clearance findings pr-236 --json',
        'clearance findings pr-236 --format github   # open findings as annotations (10 per level)',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: { status?: FindingStatus; format: OutputFormat }) => {
        const { state } = await readIntactRunState(ctx.dir, runId);
        const findings = findingsOf(state, opts.status).map((f) => findingView(f, state));
        return {
          json: { runId, findings },
          text:
            opts.format === 'github' && !ctx.json
              ? await githubOutput(ctx, state, verdictAnnotation(state), undefined, findings)
              : findings.length === 0
                ? `no ${opts.status ?? ''} findings in ${runId}`.replace('  ', ' ')
                : findings.map((f) => findingLine(ctx.color, f)).join('\n'),
        };
      }),
    );
