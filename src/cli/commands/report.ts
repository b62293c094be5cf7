import path from 'node:path';
import type { Command } from 'commander';
import { historyOf } from '../../render/history.js';
import { htmlReport } from '../../render/html.js';
import { readIntactEvents } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { VERSION } from '../program.js';
import { writeOutputFile } from '../write-output.js';

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
        const read = await readIntactEvents(ctx.store, runId);
        const history = historyOf(read.events);
        const page = htmlReport(history, { toolVersion: VERSION });
        const file = path.resolve(opts.html);
        await writeOutputFile(file, page, 'write', 'the report');
        return {
          json: { runId, file, bytes: Buffer.byteLength(page), status: history.state.status },
          text: `wrote ${file}: ${runId} is ${history.state.status} after round ${history.state.round}`,
        };
      }),
    );
