import type { Rename } from '@clearance/fold/internal/events/event.js';
import { PRESET_NAMES } from '@clearance/fold/internal/events/policy.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { open } from '../../operations/open.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { maxBytesOption } from '../inputs.js';
import { collect, parseRename } from '../option-values.js';
import { policyFrom } from '../policy-input.js';

type Options = {
  policy?: string;
  policyFile?: string;
  maxBytes?: number;
  repo?: string;
  artifact?: string;
  base?: string;
  allowDirty?: boolean;
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
    .option('--policy-file <file>', 'a custom policy as JSON (- for standard input)')
    .addOption(maxBytesOption())
    .option('--repo <dir>', "capture round 1 from this git repository's HEAD; it becomes the run's subject")
    .option('--artifact <file>', "capture round 1 from this document's bytes; it becomes the run's subject")
    .option('--base <rev>', "with --repo: the revision round 1's touched files are measured from")
    .option('--allow-dirty', 'with --repo: bind to the working files instead of refusing uncommitted changes')
    .option('--input-sha <sha>', 'capture round 1 now, naming the input explicitly')
    .option('--touched <file>', 'with --input-sha: a file changed since the base (repeatable)', collect)
    .option('--rename <old=new>', 'with --input-sha: a file renamed since the base (repeatable)', parseRename)
    .option('--consent <command>', 'a command the user agrees the review may run (repeatable)', collect)
    .addHelpText(
      'after',
      `${examples(
        'clearance open pr-236 --policy issueflow --repo . --base origin/dev',
        'clearance open spec-review --artifact docs/spec.md',
        'clearance open pr-236 --input-sha 776ccbd5 --json',
      )}
The store (printed as "store: <dir>") is --dir or $CLEARANCE_DIR if given; else, inside a git work
tree (the one --repo names, or the current one), <git common dir>/clearance: never committed, never
part of the reviewed tree, shared by linked worktrees; else ./.clearance. A --dir inside the work tree
is left out, all of it, of the dirty check, the --allow-dirty tree and the gate: give it a directory
of its own.
A policy file may set "stallRounds": N (an integer >= 2; the standard preset sets 2) to end the run
blocked early, reason stalled, when a blocking finding is decided open in N rounds in a row or is
reopened a second time; without it a run only blocks at its cap.`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        const policy = await policyFrom(io, opts.policy, opts.policyFile, opts.maxBytes);
        const opened = await open(ctx, {
          runId,
          ...(policy === undefined ? {} : { policy }),
          ...(opts.repo === undefined ? {} : { repo: opts.repo }),
          ...(opts.artifact === undefined ? {} : { artifact: opts.artifact }),
          ...(opts.base === undefined ? {} : { base: opts.base }),
          ...(opts.allowDirty === undefined ? {} : { allowDirty: opts.allowDirty }),
          ...(opts.inputSha === undefined ? {} : { inputSha: opts.inputSha }),
          ...(opts.touched === undefined ? {} : { touched: opts.touched }),
          ...(opts.rename === undefined ? {} : { renames: opts.rename }),
          ...(opts.consent === undefined ? {} : { consent: opts.consent }),
        });
        return {
          json: opened,
          text: [
            `opened run ${ctx.color.bold(t(runId))} (policy ${t(opened.policy)}, up to ${opened.maxRounds} rounds)`,
            `store: ${t(opened.store)}`,
            opened.capture === null
              ? `next: clearance capture ${t(runId)} --input-sha <sha> (or --repo <dir>)`
              : `round 1 input captured: ${t(opened.capture.inputSha)}`,
          ].join('\n'),
        };
      }),
    );
