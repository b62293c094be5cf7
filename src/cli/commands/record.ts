import path from 'node:path';
import { type Command, Option } from 'commander';
import { resolveBudget } from '../../completion/budget.js';
import { collectRound } from '../../driver/collect.js';
import { endRound } from '../../driver/lifecycle.js';
import { recordFindingsMarkdown, recordReport } from '../../driver/record.js';
import { ClearanceError } from '../../errors.js';
import { ROUND_END_RESULTS } from '../../events/codecs/events-v2.js';
import type { RoundEndResult } from '../../events/event.js';
import { action, examples } from '../action.js';
import { actorOf, type Io } from '../context.js';
import { parseJsonInput, parseNonNegativeInt, readTextInput } from '../inputs.js';
import { recordedOutcome } from '../recorded.js';
import { withSpinner } from '../spinner.js';
import { type WaitFlags, waitOptionsOf, withWaitFlags } from '../wait-options.js';

type Options = WaitFlags & {
  report?: string;
  wait?: string;
  findingsMd?: string;
  expectSeq?: number;
  repo?: string;
};

export const registerRecord = (program: Command, io: Io): Command =>
  withWaitFlags(
    program
      .command('record')
      .description('record a round report: checked against every rule, appended only if all hold')
      .argument('<run>', 'the run id')
      .option('--report <file>', 'the round report as JSON (- for standard input)')
      .option('--wait <path>', "wait for the next round's report to be published at <path>, then record it")
      .option(
        '--findings-md <file>',
        'findings in prose: "- [severity] path:line :: text" lines and a "## Not examined" list',
      )
      .option(
        '--repo <dir>',
        'resolve citations in this repository (default: the one the run was opened with)',
      )
      .option(
        '--expect-seq <n>',
        'refuse unless the log is at this seq (someone appended meanwhile)',
        parseNonNegativeInt,
      ),
  )
    .addHelpText(
      'after',
      examples(
        'clearance record pr-236 --report round-2.json',
        'reviewer | clearance record pr-236 --report - --json',
        'clearance record pr-236 --wait review/round-2.json --timeout-ms 600000',
        'clearance record pr-236 --findings-md review.md',
        'clearance record pr-236 --end ci_failed --reason "npm test: 3 failures in test/service.test.js"',
        'clearance record pr-236 --report round-3.json --partial',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        const sources = [opts.report, opts.wait, opts.findingsMd].filter((s) => s !== undefined);
        if (sources.length !== 1)
          throw new ClearanceError(
            'usage',
            'record needs exactly one of --report <file|->, --wait <path> or --findings-md <file>',
          );
        const options = {
          ...actorOf(ctx),
          ...(opts.expectSeq === undefined ? {} : { expectedSeq: opts.expectSeq }),
          ...(opts.repo === undefined ? {} : { repo: path.resolve(opts.repo) }),
        };
        if (opts.wait !== undefined) {
          const wait = waitOptionsOf(opts);
          const collecting = collectRound(ctx.dir, runId, opts.wait, { ...options, wait });
          const result = await withSpinner(
            io,
            ctx.json,
            `waiting for ${opts.wait}`,
            resolveBudget(wait).timeoutMs,
            collecting,
          );
          return recordedOutcome(ctx, runId, result);
        }
        if (opts.findingsMd !== undefined) {
          const text = await readTextInput(opts.findingsMd, io, 'findings file');
          return recordedOutcome(ctx, runId, await recordFindingsMarkdown(ctx.dir, runId, text, options));
        }
        const source = opts.report as string;
        const report = parseJsonInput(
          await readTextInput(source, io, 'report'),
          source,
          (m) => new ClearanceError('invalid-report', `invalid round report: ${m}`),
        );
        return recordedOutcome(ctx, runId, await recordReport(ctx.dir, runId, report, options));
      }),
    );
