import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { checks } from '../../operations/checks.js';
import { action, examples } from '../action.js';
import { checksFromFlags, type GivenCheck } from '../check-flags.js';
import { checksText } from '../checks-text.js';
import type { Io } from '../context.js';
import { maxBytesOption, parseJsonInput, readTextInput } from '../inputs.js';

type Options = { from?: string; maxBytes?: number };

const usage = (message: string) => new ClearanceError('usage', message);

/**
 * The checks in the file `gh pr checks --json name,state,link` wrote (or standard input): read
 * through the one bounded reader, exact UTF-8 and JSON, then its shape. Its parser (zod) is loaded
 * only here: `--check` alone never compiles it.
 */
const fromGh = async (from: string, opts: Options, io: Io): Promise<GivenCheck[]> => {
  const text = await readTextInput(from, io, 'checks', {
    ...(opts.maxBytes === undefined ? {} : { maxBytes: opts.maxBytes }),
    refuse: (message, details) => new ClearanceError('usage', message, details),
  });
  const value = parseJsonInput(
    text,
    from,
    (message, details) => new ClearanceError('usage', `not JSON: ${message}`, details),
  );
  const { checksFromGh } = await import('../gh-checks.js');
  return checksFromGh(value, from === '-' ? 'standard input' : from);
};

export const registerChecks = (program: Command, io: Io): Command => {
  // --check and --url in the order given: each --url is the link of the --check before it. Kept as
  // raw words and judged in the action, so a refusal is printed like every other (escaped).
  const given: Array<readonly ['check' | 'url', string]> = [];
  const inOrder = (flag: 'check' | 'url') => (value: string) => {
    given.push([flag, value]);
    return given;
  };
  return program
    .command('checks')
    .description(
      "record the project's CI checks as they finished on the input captured for the round in progress: a required check that failed ends the round ci_failed, its link in the feedback",
    )
    .argument('<run>', 'the run id')
    .option(
      '--check <name=state>',
      'a check and how it ended: passed, failed or skipped (repeatable)',
      inOrder('check'),
    )
    .option('--url <url>', 'the http(s) link of the --check just before it (its log)', inOrder('url'))
    .option(
      '--from <file>',
      'the JSON array gh pr checks --json name,state,link prints, instead of --check (- for standard input)',
    )
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      `${examples(
        'gh pr checks 236 --watch; gh pr checks 236 --json name,state,link | clearance checks pr-236 --from -',
        'clearance checks pr-236 --check test=failed --url https://github.com/o/r/actions/runs/1 --check lint=passed',
        'clearance next pr-236 --json | jq -r ".required[]"   # the checks the policy requires',
      )}
Record them after clearance capture and before the round's report: under a policy with required
checks a report is refused until they are recorded for its input. A required check that failed,
or was skipped without being in the policy's expectedSkips, ends the round ci_failed with a
reason naming it and its link; an optional one that failed is noted. gh's states: SUCCESS and
NEUTRAL are passed, SKIPPED skipped, FAILURE, ERROR, CANCELLED, TIMED_OUT, ACTION_REQUIRED,
STARTUP_FAILURE and STALE failed; a check still PENDING, QUEUED, IN_PROGRESS, WAITING, REQUESTED
or EXPECTED is refused: run it again when the checks have finished.`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        if ((opts.from === undefined) === (given.length === 0))
          throw usage('checks needs --check NAME=STATE (repeatable) or --from FILE, one of the two');
        const source = opts.from === undefined ? '--check' : `--from ${opts.from === '-' ? '-' : opts.from}`;
        const offered = opts.from === undefined ? checksFromFlags(given) : await fromGh(opts.from, opts, io);
        const r = await checks(ctx, { runId, checks: offered, source });
        return { json: r, text: checksText(runId, r) };
      }),
    );
};
