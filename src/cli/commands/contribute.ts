import { parseReport } from '@clearance/fold/internal/events/round-report.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../../errors.js';
import { contribute } from '../../operations/contributions.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { parseJsonInput, readTextInput } from '../inputs.js';
import { reviewerFlagOf, withReviewerFlag } from '../reviewer-flag.js';

const MERGE_HELP = `
A round from several reviewers:
  Each reviewer's report is appended with contribute, bound to the run, the round and the
  captured input exactly like a round report, and checked as it arrives: within one report the
  usual rules hold (a duplicated candidate is refused). A named reviewer hands in once per round
  (duplicate-contribution); the very same report again is answered "already recorded".
  record --merge then closes the round with the merge (with nothing handed in it is refused,
  no-contributions: contribute first, or record one report with record --report):
    - candidates with the same finding id are one finding, corroborated by each reviewer;
    - candidates on the same file and line (or section), whatever their category, are one finding;
    - candidates of one category in one file within the policy's mergeWithinLines (default 3)
      are one finding. Merging happens only across contributions. The first contribution's
      candidate is kept (contributions are read in order of report hash, then reviewer name, so
      arrival order never matters), unless it does not block and another does; mergedFrom lists
      the rest with their reviewers;
    - decisions: fixed or withdrawn only if no reviewer says open; every vote stays in the
      evidence; every open finding in a touched file needs one decision across the round.
  Every reviewer the policy lists in experts that handed in nothing is recorded absent, and the round
  is partial: its findings count, it never converges, at the cap it is blocked. status, explain,
  replay and feedback name each round's reviewers and absentees; explain shows every merge and
  its corroboration; feedback ranks blocking findings by corroboration.

Verifier assessments:
  A candidate carries confirmed: true or an assessment in its "verdict" field (confirmed,
  plausible, refuted), and may say introducedByDiff and sameAs (an open finding's id or 8+ hex
  prefix: it corroborates that finding instead of opening one). A verifier assesses candidates
  already handed in, by key, each assessment in "verdict":
    "verifications": [{ "file", "category", "summary", "verdict", "evidence", "severity"? }]
  The strongest ruling wins. refuted is dropped and kept on the record (replay, explain);
  plausible blocks as the policy's plausible says (blocks, advisory, advisory-outside-fix);
  introducedByDiff: false takes the policy's preExistingSeverity.`;

export const registerContribute = (program: Command, io: Io): Command =>
  withReviewerFlag(
    program
      .command('contribute')
      .description(
        "append one reviewer's report to the round in progress (close the round with record --merge)",
      )
      .argument('<run>', 'the run id')
      .requiredOption('--report <file>', "the reviewer's report as JSON (- for standard input)"),
    '<name>',
    'who reviewed (default: an anonymous reviewer)',
  )
    .addHelpText('after', MERGE_HELP)
    .addHelpText(
      'after',
      examples(
        'clearance contribute pr-236 --reviewer security --report security.json',
        'reviewer | clearance contribute pr-236 --reviewer style --report - --json',
        'clearance contribute pr-236 --reviewer verifier --report rulings.json',
        'clearance record pr-236 --merge',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: { report: string; reviewer?: string; expert?: string }) => {
        const reviewer = reviewerFlagOf(opts);
        if (reviewer !== undefined && reviewer.trim() === '')
          throw new ClearanceError(
            'usage',
            '--reviewer needs a name (leave it out for an anonymous contribution)',
          );
        const refuse = (m: string, details?: Readonly<Record<string, unknown>>) =>
          new ClearanceError('invalid-report', `invalid report: ${m}`, details);
        const parsed = parseReport(
          parseJsonInput(await readTextInput(opts.report, io, 'report'), opts.report, refuse),
        );
        if (E.isLeft(parsed)) throw refusal(parsed.left);
        const result = await contribute(ctx, {
          runId,
          report: parsed.right,
          ...(reviewer === undefined ? {} : { reviewer }),
        });
        const who = t(result.expert ?? 'anonymous');
        return {
          json: result,
          text: result.alreadyRecorded
            ? `already recorded: ${who} handed in this very report for round ${result.round} of ${t(runId)}; nothing was appended`
            : `${who}'s report for round ${result.round} of ${t(runId)} recorded (${result.contributions.length} contribution(s) so far); close the round with clearance record ${t(runId)} --merge`,
        };
      }),
    );
