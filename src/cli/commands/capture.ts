import type { Rename } from '@clearance/fold/internal/events/event.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { type CaptureResult, capture } from '../../operations/capture.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { collect, parseRename } from '../option-values.js';

type Options = {
  repo?: string;
  artifact?: string;
  base?: string;
  allowDirty?: boolean;
  inputSha?: string;
  touched?: string[];
  rename?: Rename[];
  sameInput?: boolean;
  reason?: string;
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
    .option(
      '--same-input',
      'review again the input the last round reviewed, as a recorded choice (with --reason; the policy allows sameInputRounds of them, default 0)',
    )
    .option('--reason <text>', 'with --same-input: why the same bytes are reviewed again')
    .addHelpText(
      'after',
      examples(
        'clearance capture pr-236',
        "clearance capture pr-236 --same-input --reason 'the reviewer timed out on half the files'",
        'clearance capture pr-236 --repo . --allow-dirty',
        'clearance capture pr-236 --input-sha c577f1fe --touched src/service.js --rename lib/a.js=lib/b.js',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        if (opts.sameInput === true && opts.reason === undefined)
          throw new ClearanceError(
            'usage',
            '--same-input needs --reason: say why the same bytes are reviewed again',
          );
        if (opts.sameInput !== true && opts.reason !== undefined)
          throw new ClearanceError('usage', '--reason goes with --same-input');
        const captured = await capture(ctx, {
          runId,
          ...(opts.repo === undefined ? {} : { repo: opts.repo }),
          ...(opts.artifact === undefined ? {} : { artifact: opts.artifact }),
          ...(opts.base === undefined ? {} : { base: opts.base }),
          ...(opts.allowDirty === undefined ? {} : { allowDirty: opts.allowDirty }),
          ...(opts.inputSha === undefined ? {} : { inputSha: opts.inputSha }),
          ...(opts.touched === undefined ? {} : { touched: opts.touched }),
          ...(opts.rename === undefined ? {} : { renames: opts.rename }),
          ...(opts.reason === undefined ? {} : { sameInput: opts.reason }),
        });
        return { json: captured, text: capturedText(captured) };
      }),
    );

const capturedText = (r: CaptureResult): string => {
  const { inputSha, touchedFiles, renames, dirty } = r.capture;
  if (r.alreadyRecorded)
    return `already captured: round ${r.round} of ${t(r.runId)} waits for input ${t(inputSha)}; nothing was appended`;
  const changes = [
    touchedFiles.length > 0 ? `${touchedFiles.length} touched file(s)` : '',
    renames.length > 0 ? `${renames.length} rename(s)` : '',
  ]
    .filter((s) => s !== '')
    .join(', ');
  const again =
    r.capture.sameInput === undefined
      ? ''
      : `; the same input again, because: ${t(r.capture.sameInput.reason)}`;
  return `captured round ${r.round} of ${t(r.runId)}: input ${t(inputSha)}${dirty === true ? ' (the working tree, uncommitted changes included)' : ''}${changes === '' ? '' : `; ${changes}`}${again}`;
};
