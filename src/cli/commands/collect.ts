import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { resolveBudget } from '../../handoff/wait-budget.js';
import type { ExpertSource } from '../../operations/contributions.js';
import { collect } from '../../operations/contributions.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { recordedText } from '../recorded-text.js';
import { withSpinner } from '../spinner.js';
import { type WaitFlags, waitOptionsOf, withWaitFlags } from '../wait-options.js';

/** `--expert security=review/security.json`, repeatable. */
const expertSource = (value: string, previous: ExpertSource[] = []): ExpertSource[] => {
  const at = value.indexOf('=');
  if (at < 1 || at === value.length - 1)
    throw new ClearanceError(
      'usage',
      `--expert ${JSON.stringify(value)}: give NAME=PATH, e.g. security=review/security.json`,
    );
  const expert = value.slice(0, at);
  if (previous.some((s) => s.expert === expert))
    throw new ClearanceError('usage', `--expert ${expert} is named twice: one report per reviewer`);
  return [...previous, { expert, path: value.slice(at + 1) }];
};

export const registerCollect = (program: Command, io: Io): Command =>
  withWaitFlags(
    program
      .command('collect')
      .description(
        "wait for several reviewers' published reports under one deadline, append each as it arrives, record the rest absent, then close the round with the merge",
      )
      .argument('<run>', 'the run id')
      .requiredOption(
        '--expert <name=path>',
        'a reviewer and where its report will be published (repeat)',
        expertSource,
      ),
  )
    .addHelpText(
      'after',
      `
Each report is appended (clearance contribute) the moment it is published and validates, so a
crash mid-collection keeps what arrived. A reviewer whose report is still missing at the deadline,
or is malformed, oversized or refused by the rules, is recorded absent with the reason; so is every
expert of the policy not named here. The round is then closed with the merge (record --merge), and
a round with an absent reviewer is partial. If the round has no contribution at all at the
deadline, the absences are recorded, the round stays open and collect exits 3 (timeout). See clearance contribute --help
for the merge rules.`,
    )
    .addHelpText(
      'after',
      examples(
        'clearance collect pr-236 --expert security=review/security.json --expert style=review/style.json --timeout-ms 600000',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: WaitFlags & { expert: ExpertSource[] }) => {
        const wait = waitOptionsOf(opts);
        const result = await withSpinner(
          io,
          ctx.json,
          `waiting for ${opts.expert.length} reviewer(s)`,
          resolveBudget(wait).timeoutMs,
          (signal) => collect({ ...ctx, signal }, { runId, experts: opts.expert, wait }),
        );
        return { json: result, text: recordedText(ctx.color, result) };
      }),
    );
