import { parseReport } from '@clearance/fold/internal/events/round-report.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../../errors.js';
import { publish } from '../../operations/reports.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { maxBytesOption, parseJsonInput, readTextInput } from '../inputs.js';
import { reviewerFlagOf, withReviewerFlag } from '../reviewer-flag.js';

export const registerPublish = (program: Command, io: Io): Command =>
  withReviewerFlag(
    program
      .command('publish')
      .description(
        'for producers: publish a round report atomically (temporary file, fsync, rename), so a waiter never sees half of it; missing parent directories are created',
      )
      .argument(
        '<path>',
        'where the driver waits for the report: a file path, or a postgres://… store URL (across machines)',
      )
      .option('--report <file>', 'the round report as JSON (- for standard input)'),
    '<name>',
    'in a store: whose report this is, when a round collects several (clearance collect --reviewer NAME=postgres://…)',
  )
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      examples(
        'clearance publish review/round-2.json --report draft.json',
        'reviewer-agent | clearance publish review/round-2.json --report -',
      ),
    )
    .action(
      action(
        io,
        async (
          _ctx,
          path: string,
          opts: { report?: string; maxBytes?: number; reviewer?: string; expert?: string },
        ) => {
          const reviewer = reviewerFlagOf(opts);
          if (opts.report === undefined) throw new ClearanceError('usage', 'publish needs --report <file|->');
          const refuse = (m: string, details?: Readonly<Record<string, unknown>>) =>
            new ClearanceError('invalid-report', `invalid round report: ${m}`, details);
          const value = parseJsonInput(
            await readTextInput(opts.report, io, 'report', { refuse, maxBytes: opts.maxBytes }),
            opts.report,
            refuse,
          );
          // a report the driver would refuse is refused here, where its producer can still fix it
          const parsed = parseReport(value);
          if (E.isLeft(parsed)) throw refusal(parsed.left);
          const r = await publish(
            {},
            { path, report: parsed.right, ...(reviewer === undefined ? {} : { reviewer }) },
          );
          return {
            json: r,
            text: `published the round ${r.round} report of ${t(r.runId)} (input ${t(r.inputSha)}) at ${t(r.path)}`,
          };
        },
      ),
    );
