import type { Command } from 'commander';
import { openReview } from '../../driver/open.js';
import type { Rename } from '../../events/event.js';
import { PRESET_NAMES } from '../../events/policy.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { collect, parseRename } from '../inputs.js';
import { policyFrom } from '../policy-input.js';

type Options = {
  policy?: string;
  policyFile?: string;
  inputSha?: string;
  touched?: string[];
  rename?: Rename[];
  consent?: string[];
};

export const registerOpen = (program: Command, io: Io): Command =>
  program
    .command('open')
    .description('open a review loop: pin its policy and, optionally, capture round 1')
    .argument('<run>', 'the run id: 1-128 characters of A-Z a-z 0-9 . _ -')
    .option('--policy <name>', `a preset policy: ${PRESET_NAMES.join(', ')} (default: default)`)
    .option('--policy-file <file>', 'a custom policy as JSON')
    .option('--input-sha <sha>', 'capture round 1 now, with this input')
    .option('--touched <file>', 'with --input-sha: a file changed since the base (repeatable)', collect)
    .option('--rename <old=new>', 'with --input-sha: a file renamed since the base (repeatable)', parseRename)
    .option('--consent <command>', 'a command the user agrees the review may run (repeatable)', collect)
    .addHelpText(
      'after',
      examples(
        'clearance open pr-236 --policy issueflow',
        'clearance open pr-236 --input-sha 776ccbd5 --json',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        const policy = await policyFrom(io, opts.policy, opts.policyFile);
        const capture =
          opts.inputSha === undefined
            ? undefined
            : { inputSha: opts.inputSha, touchedFiles: opts.touched ?? [], renames: opts.rename ?? [] };
        const events = await openReview(
          ctx.dir,
          {
            runId,
            policy,
            ...(capture === undefined ? {} : { capture }),
            ...(opts.consent === undefined ? {} : { commands: opts.consent }),
          },
          ctx.by,
        );
        const seq = events.length;
        return {
          json: {
            runId,
            policy: policy.name,
            maxRounds: policy.maxRounds,
            seq,
            captured: capture !== undefined,
            dir: ctx.dir,
          },
          text: [
            `opened run ${ctx.color.bold(runId)} (policy ${policy.name}, up to ${policy.maxRounds} rounds) in ${ctx.dir}`,
            capture === undefined
              ? `next: clearance capture ${runId} --input-sha <sha>`
              : `round 1 input captured: ${capture.inputSha}`,
          ].join('\n'),
        };
      }),
    );
