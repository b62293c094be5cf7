import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { htmlPage, htmlReportOf } from '../../operations/artifacts.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerReport = (program: Command, io: Io): Command =>
  program
    .command('report')
    .description(
      'write one self-contained HTML page of how the verdict was reached: rounds, timeline, findings, cost',
    )
    .argument('<run>', 'the run id')
    .requiredOption(
      '--html <file>',
      'the page to write (no script, no network, no external asset); - for standard output',
    )
    .addHelpText(
      'after',
      examples(
        'clearance report pr-236 --html review.html',
        'clearance report pr-236 --html - > review.html',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: { html: string }) => {
        if (opts.html === '-') {
          if (ctx.json)
            throw new ClearanceError(
              'usage',
              '--html - writes the page to standard output, where --json writes its object: give the page a file',
            );
          // the page is the output, as export's log is: exactly the bytes, nothing around them
          io.stdout.write((await htmlReportOf(ctx, runId)).page);
          return { json: {}, text: '' };
        }
        const written = await htmlPage(ctx, { runId, html: opts.html });
        return {
          json: written,
          text: `wrote ${t(written.file)}: ${t(runId)} is ${written.status} after round ${written.round}`,
        };
      }),
    );
