import type { Command } from 'commander';
import { htmlPage } from '../../operations/artifacts.js';
import { plainText as t } from '../../text/untrusted.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerReport = (program: Command, io: Io): Command =>
  program
    .command('report')
    .description(
      'write one self-contained HTML page of how the verdict was reached: rounds, timeline, findings, cost',
    )
    .argument('<run>', 'the run id')
    .requiredOption('--html <file>', 'the page to write (no script, no network, no external asset)')
    .addHelpText('after', examples('clearance report pr-236 --html review.html'))
    .action(
      action(io, async (ctx, runId: string, opts: { html: string }) => {
        const written = await htmlPage(ctx, { runId, html: opts.html });
        return {
          json: written,
          text: `wrote ${t(written.file)}: ${t(runId)} is ${written.status} after round ${written.round}`,
        };
      }),
    );
