import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { replay } from '../../operations/replay.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { statusWord, trailLine } from '../format.js';

export const registerReplay = (program: Command, io: Io): Command =>
  program
    .command('replay')
    .description(
      'replay a run from its log: every event, who wrote it, and what it did (or why the rules refused it)',
    )
    .argument('<run>', 'the run id')
    .addHelpText(
      'after',
      examples('clearance replay pr-236', 'clearance replay pr-236 --json | jq ".events[-1]"'),
    )
    .action(
      action(io, async (ctx, runId: string) => {
        const replayed = await replay(ctx, { runId });
        return {
          json: replayed,
          text: [
            ...replayed.events.map((e) => trailLine(ctx.color, e, e)),
            `replayed ${replayed.events.length} event(s): ${t(runId)} is ${statusWord(ctx.color, replayed.status)}`,
          ].join('\n'),
        };
      }),
    );
