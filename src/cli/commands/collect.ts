import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { resolveBudget } from '../../handoff/wait-budget.js';
import { collect, type ReviewerSource } from '../../operations/contributions.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { recordedText } from '../recorded-text.js';
import { reviewerFlagOf, withReviewerFlag } from '../reviewer-flag.js';
import { withSpinner } from '../spinner.js';
import { type WaitFlags, waitOptionsOf, withWaitFlags } from '../wait-options.js';

/** `--reviewer security=review/security.json`, repeatable; `flag` is the spelling given. */
const reviewerSource =
  (flag: string) =>
  (value: string, previous: ReviewerSource[] = []): ReviewerSource[] => {
    const at = value.indexOf('=');
    if (at < 1 || at === value.length - 1)
      throw new ClearanceError(
        'usage',
        `${flag} ${JSON.stringify(value)}: give NAME=PATH, e.g. security=review/security.json`,
      );
    const reviewer = value.slice(0, at);
    if (previous.some((s) => s.reviewer === reviewer))
      throw new ClearanceError('usage', `${flag} ${reviewer} is named twice: one report per reviewer`);
    return [...previous, { reviewer, path: value.slice(at + 1) }];
  };

type Sources = { reviewer?: ReviewerSource[]; expert?: ReviewerSource[] };

export const registerCollect = (program: Command, io: Io): Command =>
  withWaitFlags(
    withReviewerFlag(
      program
        .command('collect')
        .description(
          "wait for several reviewers' published reports under one deadline, append each as it arrives, record the rest absent, then close the round with the merge",
        )
        .argument('<run>', 'the run id'),
      '<name=path>',
      'a reviewer and where its report will be published (repeat; at least one)',
      reviewerSource,
    ),
  )
    .addHelpText(
      'after',
      `
Each report is appended (clearance contribute) the moment it is published and validates, so a
crash mid-collection keeps what arrived. A reviewer whose report is still missing at the deadline,
or is malformed, oversized or refused by the rules, is recorded absent with the reason; so is every
reviewer the policy lists in experts and not named here. The round is then closed with the merge
(record --merge), and a round with an absent reviewer is partial. If the round has no contribution
at all at the deadline, the absences are recorded, the round stays open and collect exits 3
(timeout). See clearance contribute --help for the merge rules.`,
    )
    .addHelpText(
      'after',
      examples(
        'clearance collect pr-236 --reviewer security=review/security.json --reviewer style=review/style.json --timeout-ms 600000',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: WaitFlags & Sources) => {
        const reviewers = reviewerFlagOf(opts);
        if (reviewers === undefined)
          throw new ClearanceError('usage', 'collect needs --reviewer NAME=PATH, once for each reviewer');
        const wait = waitOptionsOf(opts);
        const result = await withSpinner(
          io,
          ctx.json,
          `waiting for ${reviewers.length} reviewer(s)`,
          resolveBudget(wait).timeoutMs,
          (signal) => collect({ ...ctx, signal }, { runId, reviewers, wait }),
        );
        return { json: result, text: recordedText(ctx.color, result) };
      }),
    );
