import path from 'node:path';
import type { Command } from 'commander';
import { captureRound, captureWorkspace } from '../../driver/capture.js';
import { ClearanceError } from '../../errors.js';
import type { Rename } from '../../events/event.js';
import { action, examples } from '../action.js';
import { actorOf, type Io } from '../context.js';
import { collect, parseRename } from '../inputs.js';

type Options = {
  repo?: string;
  artifact?: string;
  base?: string;
  allowDirty?: boolean;
  inputSha?: string;
  touched?: string[];
  rename?: Rename[];
};

export const registerCapture = (program: Command, io: Io): Command =>
  program
    .command('capture')
    .description(
      "record the input the run's next round reviews, and what changed since the last reviewed input (captured again before the round is recorded, the latest wins)",
    )
    .argument('<run>', 'the run id')
    .option('--repo <dir>', 'capture HEAD of this repository (default: the one the run was opened with)')
    .option(
      '--artifact <file>',
      'capture the bytes of this document (default: the one the run was opened with)',
    )
    .option('--base <rev>', 'for round 1: the revision touched files are measured from')
    .option('--allow-dirty', 'bind to the working files instead of refusing uncommitted changes')
    .option('--input-sha <sha>', 'name the input explicitly instead (with --touched and --rename)')
    .option(
      '--touched <file>',
      'with --input-sha: a file changed since the last reviewed input (repeatable)',
      collect,
    )
    .option(
      '--rename <old=new>',
      'with --input-sha: a file renamed since the last reviewed input (repeatable)',
      parseRename,
    )
    .addHelpText(
      'after',
      examples(
        'clearance capture pr-236',
        'clearance capture pr-236 --repo . --allow-dirty',
        'clearance capture pr-236 --input-sha c577f1fe --touched src/service.js --rename lib/a.js=lib/b.js',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        const explicit = opts.inputSha !== undefined;
        if (
          explicit &&
          (opts.repo !== undefined || opts.artifact !== undefined || opts.allowDirty === true)
        ) {
          throw new ClearanceError('usage', 'give --input-sha or --repo/--artifact, not both');
        }
        const result =
          opts.inputSha !== undefined
            ? await captureRound(
                ctx.store,
                runId,
                { inputSha: opts.inputSha, touchedFiles: opts.touched ?? [], renames: opts.rename ?? [] },
                actorOf(ctx),
              )
            : await captureWorkspace(
                ctx.store,
                runId,
                {
                  ...(opts.repo === undefined ? {} : { repo: path.resolve(opts.repo) }),
                  ...(opts.artifact === undefined ? {} : { artifact: path.resolve(opts.artifact) }),
                  ...(opts.base === undefined ? {} : { base: opts.base }),
                  ...(opts.allowDirty === undefined ? {} : { allowDirty: opts.allowDirty }),
                },
                actorOf(ctx),
              );
        const waiting = result.folded.state.capture;
        if (result.alreadyRecorded && waiting !== null) {
          const { round, ...capture } = waiting;
          return {
            json: { runId, seq: null, round, alreadyRecorded: true, capture },
            text: `already captured: round ${round} of ${runId} waits for input ${capture.inputSha}; nothing was appended`,
          };
        }
        const event = result.appended[0];
        if (event?.type !== 'revision.captured') throw new ClearanceError('usage', 'nothing was captured');
        const { round, ...capture } = event.data;
        const { inputSha, touchedFiles, renames } = capture;
        const changes = [
          touchedFiles.length > 0 ? `${touchedFiles.length} touched file(s)` : '',
          renames.length > 0 ? `${renames.length} rename(s)` : '',
        ]
          .filter((s) => s !== '')
          .join(', ');
        return {
          json: { runId, seq: event.seq, round, alreadyRecorded: false, capture },
          text: `captured round ${round} of ${runId}: input ${inputSha}${event.data.dirty === true ? ' (the working tree, uncommitted changes included)' : ''}${changes === '' ? '' : `; ${changes}`}`,
        };
      }),
    );
