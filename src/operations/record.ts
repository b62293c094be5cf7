import path from 'node:path';
import type { FailureReason, RoundEndResult, RoundResult } from '@clearance/fold/internal/events/event.js';
import { citationsRequired } from '@clearance/fold/internal/events/policy.js';
import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import { parseReport } from '@clearance/fold/internal/events/round-report.js';
import type { RunState } from '@clearance/fold/internal/projections/state.js';
import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, isClearanceError, refusal } from '../errors.js';
import { printableLocation, waitForReportAt } from '../handoff/at.js';
import type { WaitOptions } from '../handoff/wait-budget.js';
import { resolveCitations } from '../revision/citations.js';
import type { AppendOptions, AppendResult } from '../store/append.js';
import { intact, type RunStatusRead } from '../store/read.js';
import type { Store } from '../store/store.js';
import { appendCommand, decidedAt, expectedReport } from './command.js';
import { actorOf, type OperationContext } from './context.js';
import { boundText, INPUT_BOUNDS } from './input-bounds.js';
import { type RecordResult, recordResultOf } from './recorded.js';
import { artifactNameOf } from './subject.js';

/** How a round ends: exactly one of these. */
export type RoundSource =
  /** a round report, already parsed (`parseReport`) by the door that read it */
  | Readonly<{ kind: 'report'; report: RoundReport }>
  /** a review in Markdown, as sent: it becomes the next round's report */
  | Readonly<{ kind: 'markdown'; review: string | Uint8Array }>
  /** wait for the next round's report to be published at `path`, then record it */
  | Readonly<{ kind: 'wait'; path: string; wait?: WaitOptions }>
  /** close the round with the merge of the contributions recorded so far */
  | Readonly<{ kind: 'merge' }>
  /** end the round without a complete report, saying why */
  | Readonly<{ kind: 'end'; result: RoundEndResult; reason: string }>;

export type RecordInput = Readonly<{
  runId: string;
  source: RoundSource;
  /** with a report: the round is partial (the budget ran out, a reviewer handed in nothing) */
  partial?: boolean;
  /** resolve citations in this repository (default: the one the run was opened with) */
  repo?: string;
  /** refuse unless the log is at this seq */
  expectSeq?: number;
}>;

/** How a report is recorded: by whom, the repository its citations resolve in, complete or partial. */
type RecordOptions = AppendOptions & Readonly<{ repo?: string; result?: RoundResult }>;

/**
 * Resolve every candidate's citation at the revision captured for the next round, when the
 * run's policy requires citations to resolve. Reads files through git at the captured tree, never
 * from the work tree.
 */
const citationsFor = async (state: RunState, report: RoundReport, repoOverride: string | undefined) => {
  const run = state.run;
  const capture = state.capture;
  if (run === null || capture === null || !citationsRequired(run.policy)) return undefined;
  if (report.candidates.length === 0) return undefined;
  const repo = repoOverride ?? run.subject.repo;
  const rev = capture.tree ?? capture.commit;
  const name = artifactNameOf(run.subject);
  const artifact =
    run.subject.artifact !== undefined && capture.artifactSha !== undefined && name !== undefined
      ? { path: run.subject.artifact, sha: capture.artifactSha, name }
      : undefined;
  if ((repo === undefined || rev === undefined) && artifact === undefined) return undefined; // evolve refuses, naming why
  return resolveCitations(
    {
      ...(repo !== undefined && rev !== undefined ? { repo, rev } : {}),
      ...(artifact === undefined ? {} : { artifact }),
    },
    report.candidates,
  );
};

/**
 * Record a parsed round report, given what was read of the run before the lock: a hint, read as
 * `status` reads it. Its events are built and checked by `evolve` against the state the append
 * folds under the lock, appended only if every rule holds; a refusal writes nothing. The hint only
 * picks the capture the citations are resolved against (when the policy asks), and when it did,
 * the append is refused (`seq-mismatch`) if the log moved since it was read.
 */
const recordAfterRead = async (
  store: Store,
  read: RunStatusRead,
  report: RoundReport,
  options: RecordOptions,
): Promise<AppendResult> => {
  const citations = await citationsFor(read.state, report, options.repo);
  const { repo: _, result, ...actor } = options;
  return appendCommand(
    store,
    read.runId,
    {
      kind: 'record',
      report,
      context: {
        ...(citations === undefined ? {} : { citations }),
        ...(result === undefined ? {} : { result }),
      },
    },
    citations === undefined ? actor : { ...actor, expectedSeq: options.expectedSeq ?? read.lastSeq },
  );
};

/**
 * Record a review written as Markdown (findings, decisions, a Not examined section, a `Verdict:`
 * line): it becomes the next round's report and faces the same rules. Its bracketed words are
 * read against the run's own severities, so the log is read before the review is; that one read
 * (from the checkpoint) also gives the citations their capture.
 */
const recordMarkdown = async (
  store: Store,
  runId: string,
  review: string | Uint8Array,
  options: RecordOptions,
): Promise<AppendResult> => {
  const read = intact(await store.foldRun(runId));
  const { state } = read;
  // loaded on demand: the bundled CLI's cold start does not evaluate the Markdown parser
  const { parseFindingsMarkdown } = await import('../revision/findings-md.js');
  const parsed = parseFindingsMarkdown(review, {
    severities: Object.keys(state.run?.policy.severities ?? {}),
  });
  if (E.isLeft(parsed)) {
    const { code, message, ...at } = parsed.left;
    throw new ClearanceError(code, `${message}; the whole review is refused`, at);
  }
  const { candidates, decisions, notExamined, verdict } = parsed.right;
  const report = parseReport({
    runId,
    round: state.round + 1,
    inputSha: state.capture?.inputSha ?? '',
    completed: true,
    candidates,
    decisions,
    ...(notExamined === undefined ? {} : { notExamined }),
    ...(verdict === undefined ? {} : { verdict }),
  });
  if (E.isLeft(report)) throw refusal(report.left);
  return recordAfterRead(store, read, report.right, options);
};

const FAILURES: ReadonlyArray<string> = [
  'timeout',
  'incomplete',
  'malformed',
  'oversized',
] satisfies FailureReason[];

/**
 * `record --wait`: take the round and input from the run (its next round, its latest capture),
 * wait for that report to be published at `at`, and record it. A wait that fails (timeout,
 * incomplete, malformed, oversized) is appended as `round.failed` — the trail shows it and the
 * round stays open — and then reported as the failure it was.
 */
const recordWhenPublished = async (
  store: Store,
  runId: string,
  at: string,
  options: RecordOptions & Readonly<{ wait: WaitOptions }>,
): Promise<AppendResult> => {
  const { state } = intact(await store.foldRun(runId));
  const expected = expectedReport(state, runId, 'capture the input before waiting for its report');
  const { wait, ...recordOptions } = options;
  let collected: Awaited<ReturnType<typeof waitForReportAt>>;
  try {
    collected = await waitForReportAt(at, expected, wait);
  } catch (error) {
    if (isClearanceError(error) && FAILURES.includes(error.code)) {
      // decided against the read it waited for: if the run moved on meanwhile the failure no
      // longer applies to it, and the wait's error is reported alone
      const failed = decidedAt(state, {
        kind: 'fail-round',
        runId,
        reason: error.code as FailureReason,
        detail: error.message,
      });
      await store.append(runId, failed, recordOptions).catch((e: unknown) => {
        if (!isClearanceError(e)) throw e;
      });
    }
    throw error;
  }
  const read = intact(await store.foldRun(runId));
  return recordAfterRead(store, read, collected.report, recordOptions).catch((e: unknown) => {
    if (isClearanceError(e)) {
      throw new ClearanceError(
        e.code,
        `the report published at ${printableLocation(at)} was refused: ${e.message}`,
        { ...e.details, waitedMs: collected.waitedMs },
      );
    }
    throw e;
  });
};

/**
 * Record how a round ended: its report checked against every rule and appended only if all hold,
 * the merge of its contributions, or an end without a report. A refusal throws with the rule's
 * code and writes nothing.
 */
export const record = async (ctx: OperationContext, input: RecordInput): Promise<RecordResult> => {
  const { runId, source } = input;
  const actor = {
    ...actorOf(ctx),
    ...(input.expectSeq === undefined ? {} : { expectedSeq: input.expectSeq }),
  };
  if (source.kind === 'merge')
    return recordResultOf(
      runId,
      await appendCommand(ctx.store, runId, { kind: 'merge', missing: [] }, actor),
    );
  if (source.kind === 'end') {
    boundText('reason', source.reason, INPUT_BOUNDS.reason);
    const end = { result: source.result, reason: source.reason };
    return recordResultOf(runId, await appendCommand(ctx.store, runId, { kind: 'end-round', end }, actor));
  }
  const options: RecordOptions = {
    ...actor,
    ...(input.repo === undefined ? {} : { repo: path.resolve(input.repo) }),
    ...(input.partial === true ? { result: 'partial' as const } : {}),
  };
  switch (source.kind) {
    case 'report': {
      const read = intact(await ctx.store.foldRun(runId));
      return recordResultOf(runId, await recordAfterRead(ctx.store, read, source.report, options));
    }
    case 'markdown':
      return recordResultOf(runId, await recordMarkdown(ctx.store, runId, source.review, options));
    case 'wait': {
      const wait = { ...source.wait, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) };
      return recordResultOf(
        runId,
        await recordWhenPublished(ctx.store, runId, source.path, { ...options, wait }),
      );
    }
  }
};
