import type { Command } from 'commander';
import { captureRound } from '../../driver/capture.js';
import { ClearanceError } from '../../errors.js';
import type { Rename } from '../../events/event.js';
import { action, examples } from '../action.js';
import { actorOf, type Io } from '../context.js';
import { collect, parseRename } from '../inputs.js';

type Options = { inputSha?: string; touched?: string[]; rename?: Rename[] };

export const registerCapture = (program: Command, io: Io): Command =>
  program
    .command('capture')
    .description(
      "record the input the run's next round reviews (captured again before it is recorded, the latest wins)",
    )
    .argument('<run>', 'the run id')
    .option('--input-sha <sha>', 'the input, named explicitly')
    .option('--touched <file>', 'a file changed since the last reviewed input (repeatable)', collect)
    .option('--rename <old=new>', 'a file renamed since the last reviewed input (repeatable)', parseRename)
    .addHelpText(
      'after',
      examples(
        'clearance capture pr-236 --input-sha c577f1fe --touched src/service.js --rename lib/a.js=lib/b.js',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        if (opts.inputSha === undefined) throw new ClearanceError('usage', 'capture needs --input-sha <sha>');
        const result = await captureRound(
          ctx.dir,
          runId,
          { inputSha: opts.inputSha, touchedFiles: opts.touched ?? [], renames: opts.rename ?? [] },
          actorOf(ctx),
        );
        const event = result.appended[0];
        const round = event?.type === 'revision.captured' ? event.data.round : result.folded.state.round + 1;
        return {
          json: {
            runId,
            round,
            inputSha: opts.inputSha,
            seq: event?.seq ?? null,
            touchedFiles: opts.touched ?? [],
            renames: opts.rename ?? [],
          },
          text: `captured round ${round} of ${runId}: input ${opts.inputSha}${(opts.touched ?? []).length > 0 ? `, ${(opts.touched ?? []).length} touched file(s)` : ''}`,
        };
      }),
    );
