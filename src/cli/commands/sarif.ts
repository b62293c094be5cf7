import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { historyOf } from '../../render/history.js';
import { sarifLog } from '../../render/sarif.js';
import { readIntactEvents } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { parsePositiveInt } from '../inputs.js';
import { VERSION } from '../program.js';

export const registerSarif = (program: Command, io: Io): Command =>
  program
    .command('sarif')
    .description(
      'the findings of a round as SARIF 2.1.0 for code scanning: fingerprints are finding ids, compared with the round before',
    )
    .argument('<run>', 'the run id')
    .option('--round <n>', 'the round (default: the last that ended)', parsePositiveInt)
    .addHelpText(
      'after',
      `${examples(
        'clearance sarif pr-236 > clearance.sarif',
        'clearance sarif pr-236 --round 1 | jq ".runs[0].results | length"',
      )}
Prints the SARIF log on stdout (under --json: {"ok":true,"runId","round","sarif":{…}}).`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: { round?: number }) => {
        const read = await readIntactEvents(ctx.store, runId);
        const history = historyOf(read.events);
        const last = history.state.round;
        if (last === 0)
          throw new ClearanceError(
            'usage',
            `run ${runId} has no round that ended yet: record round 1 first`,
            {
              runId,
            },
          );
        const round = opts.round ?? last;
        if (round > last)
          throw new ClearanceError(
            'usage',
            `--round ${round}: run ${runId} has ended ${last} round(s); give --round 1 to ${last}`,
            { runId, round, last },
          );
        const sarif = sarifLog(history, { round, toolVersion: VERSION });
        return { json: { runId, round, sarif }, text: JSON.stringify(sarif, null, 2) };
      }),
    );
