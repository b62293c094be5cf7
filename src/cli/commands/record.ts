import { ROUND_END_RESULTS } from '@clearance/fold/internal/events/codecs/round-ended-v1.js';
import type { RoundEndResult } from '@clearance/fold/internal/events/event.js';
import { parseReport } from '@clearance/fold/internal/events/round-report.js';
import { type Command, Option } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../../errors.js';
import { printableLocation } from '../../handoff/at.js';
import { resolveBudget } from '../../handoff/wait-budget.js';
import { type RoundSource, record } from '../../operations/record.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { parseJsonInput, readInput, readTextInput } from '../inputs.js';
import { parseNonNegativeInt } from '../option-values.js';
import { recordedText } from '../recorded-text.js';
import { withSpinner } from '../spinner.js';
import { type WaitFlags, waitOptionsOf, withWaitFlags } from '../wait-options.js';

const FINDINGS_MD_HELP = `
A review in Markdown (--findings-md):
  Every list item (any marker: - * + 1. 1), at any depth, inside > quotes too) whose text starts
  with a bracketed word is a finding or a decision; emphasis around the word (**[high]**) is fine:
    - [high] src/app.js:2 :: the handle is never closed
    - [low] \`docs/spec.md § Install\` :: the command needs sudo
    - [fixed] 827f9ded38b8 :: closed in a finally block      ([fixed], [open] or [withdrawn])
    - [reopened] 3f2a1b2c3d4e :: the leak is back since the pool change   (a fixed finding)
  The word must be a severity of the run's policy or a decision, and the item must parse, or the
  whole review is refused quoting the line; so is a finding outside a list item (a paragraph, an
  item's second line) or under Not examined. Under a "## Findings" heading every list item must be
  a finding or a decision. "## Not examined" holds a list or a paragraph, never nothing.
  "Verdict: open|blocked|converged" (pass = converged) must agree with the derived verdict.
  Empty input, bytes that are not UTF-8 text and JSON (use --report) are refused.`;

type Options = WaitFlags & {
  report?: string;
  wait?: string;
  findingsMd?: string;
  end?: RoundEndResult;
  reason?: string;
  partial?: boolean;
  expectSeq?: number;
  repo?: string;
  merge?: boolean;
};

/** The one way the round ends, from the one flag that names it: `record` needs exactly one. */
const sourceOf = async (io: Io, opts: Options): Promise<RoundSource> => {
  const sources = [opts.report, opts.wait, opts.findingsMd, opts.end, opts.merge].filter(
    (s) => s !== undefined,
  );
  if (sources.length !== 1) {
    throw new ClearanceError(
      'usage',
      'record needs exactly one of --report <file|->, --wait <path>, --findings-md <file>, --merge or --end <result>',
    );
  }
  if (opts.merge === true) return { kind: 'merge' };
  if (opts.end !== undefined) {
    if (opts.reason === undefined)
      throw new ClearanceError(
        'usage',
        `record --end ${opts.end} needs --reason: a round that ends without a report says why`,
      );
    return { kind: 'end', result: opts.end, reason: opts.reason };
  }
  if (opts.reason !== undefined) throw new ClearanceError('usage', '--reason goes with --end');
  if (opts.wait !== undefined) return { kind: 'wait', path: opts.wait, wait: waitOptionsOf(opts) };
  if (opts.findingsMd !== undefined) {
    // the bytes as sent, bounded like every input: the prose parser refuses what is not UTF-8
    return { kind: 'markdown', review: await readInput(opts.findingsMd, io, 'findings file', opts.maxBytes) };
  }
  const source = opts.report as string;
  const refuse = (m: string, details?: Readonly<Record<string, unknown>>) =>
    new ClearanceError('invalid-report', `invalid round report: ${m}`, details);
  const text = await readTextInput(source, io, 'report', { refuse, maxBytes: opts.maxBytes });
  // JSON starts with { (a report) or [; prose given here is the likeliest slip, and has its own flag
  const prose = /^\s*[^\s{[]/.test(text);
  const parsed = parseReport(
    parseJsonInput(text, source, (m, details) =>
      refuse(
        prose ? `${m}; it looks like a Markdown review: record it with --findings-md ${source}` : m,
        details,
      ),
    ),
  );
  if (E.isLeft(parsed)) throw refusal(parsed.left);
  return { kind: 'report', report: parsed.right };
};

export const registerRecord = (program: Command, io: Io): Command =>
  withWaitFlags(
    program
      .command('record')
      .description(
        'record how a round ended: its report, checked against every rule and appended only if all hold, or why it has none',
      )
      .argument('<run>', 'the run id')
      .option('--report <file>', 'the round report as JSON (- for standard input)')
      .option(
        '--wait <path>',
        "wait for the next round's report to be published at <path> (a file, or a postgres://… store URL), then record it",
      )
      .option(
        '--findings-md <file>',
        'a review in Markdown, read as CommonMark (- for standard input; see "A review in Markdown" below)',
      )
      .addOption(
        new Option('--end <result>', 'end the round without a report, saying why with --reason').choices([
          ...ROUND_END_RESULTS,
        ]),
      )
      .option(
        '--merge',
        'close the round with the merge of the contributions recorded so far; reviewers not heard from are recorded absent (see clearance contribute --help)',
      )
      .option('--reason <text>', 'with --end: why (for ci_failed, the diagnosis: it is the feedback)')
      .option(
        '--partial',
        'with a report: the round is partial (the budget ran out, or a reviewer handed in nothing)',
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
    .addHelpText('after', FINDINGS_MD_HELP)
    .addHelpText(
      'after',
      examples(
        'clearance record pr-236 --report round-2.json',
        'reviewer | clearance record pr-236 --report - --json',
        'clearance record pr-236 --wait review/round-2.json --timeout-ms 600000',
        'clearance record pr-236 --findings-md review.md',
        'clearance record pr-236 --end ci_failed --reason "npm test: 3 failures in test/service.test.js"',
        'clearance record pr-236 --report round-3.json --partial',
        'clearance record pr-236 --merge',
      ),
    )
    .action(
      action(io, async (ctx, runId: string, opts: Options) => {
        const source = await sourceOf(io, opts);
        const input = {
          runId,
          source,
          ...(opts.expectSeq === undefined ? {} : { expectSeq: opts.expectSeq }),
          ...(opts.repo === undefined ? {} : { repo: opts.repo }),
          ...(opts.partial === true ? { partial: true } : {}),
        };
        const result =
          source.kind === 'wait'
            ? await withSpinner(
                io,
                ctx.json,
                `waiting for ${printableLocation(source.path)}`,
                resolveBudget(source.wait ?? {}).timeoutMs,
                (signal) => record({ ...ctx, signal }, input),
              )
            : await record(ctx, input);
        return { json: result, text: recordedText(ctx.color, result) };
      }),
    );
