import type { Command } from 'commander';
import { readIntactEvents } from '../../store/store.js';
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
        const read = await readIntactEvents(ctx.store, runId);
        const { trail, state } = read.folded;
        const events = trail.map((t, i) => ({ ...t, at: read.events[i]?.at, by: read.events[i]?.by }));
        return {
          json: { runId, status: state.status, round: state.round, events },
          text: [
            ...trail.map((t, i) =>
              trailLine(ctx.color, t, { at: read.events[i]?.at, by: read.events[i]?.by }),
            ),
            `replayed ${trail.length} event(s): ${runId} is ${statusWord(ctx.color, state.status)}`,
          ].join('\n'),
        };
      }),
    );
