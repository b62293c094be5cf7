import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../errors.js';
import type { CitationCheck, RoundResult } from '../events/event.js';
import { citationsRequired } from '../events/policy.js';
import { parseReport, type RoundReport } from '../events/round-report.js';
import { resolveCitations } from '../revision/citations.js';
import type { AppendResult } from '../store/append.js';
import type { RunStatusRead } from '../store/read.js';
import { foldIntactFromCheckpoint, type StoreRef } from '../store/store.js';
import type { ActorOptions } from './capture.js';
import { appendCommand } from './command.js';
import { artifactNameOf } from './subject.js';

export type RecordOptions = ActorOptions &
  Readonly<{
    expectedSeq?: number;
    /** the repository to resolve citations in, instead of the one the run was opened with */
    repo?: string;
    /** `partial` when the budget ran out or an expert handed in nothing (default `complete`) */
    result?: RoundResult;
  }>;

/**
 * Resolve every candidate's citation at the revision captured for the next round, when the
 * run's policy requires citations to resolve. Reads files through git at the captured tree, never
 * from the work tree.
 */
const citationsFor = async (
  state: RunStatusRead['state'],
  report: RoundReport,
  repoOverride: string | undefined,
) => {
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

const appendRecorded = (
  store: StoreRef,
  runId: string,
  report: RoundReport,
  context: Readonly<{ citations: ReadonlyArray<CitationCheck> | undefined; result: RoundResult | undefined }>,
  options: ActorOptions & { expectedSeq?: number },
): Promise<AppendResult> =>
  // the events are decided under the lock and checked by `evolve` once, in the store
  appendCommand(
    store,
    runId,
    {
      kind: 'record',
      report,
      context: {
        ...(context.citations === undefined ? {} : { citations: context.citations }),
        ...(context.result === undefined ? {} : { result: context.result }),
      },
    },
    options,
  );

/**
 * Record a parsed round report: its citations resolved when the policy asks, its events built and
 * checked by `evolve` against the run's state under the lock, appended only if every rule holds. A
 * refusal throws with the rejection and writes nothing. Untrusted JSON goes through
 * `recordUntrustedReport`, which parses it first.
 */
export const recordReport = async (
  store: StoreRef,
  runId: string,
  report: RoundReport,
  options: RecordOptions,
): Promise<AppendResult> =>
  recordAfterRead(store, await foldIntactFromCheckpoint(store, runId), report, options);

/**
 * `recordReport` given what was read of the run before the lock: a hint, read from the checkpoint
 * as `status` reads it. The round's rules are judged under the lock against the state the append
 * folds; the hint only picks the capture the citations are resolved against, and when it did, the
 * append is refused (`seq-mismatch`) if the log moved since it was read.
 */
const recordAfterRead = async (
  store: StoreRef,
  read: RunStatusRead,
  report: RoundReport,
  options: RecordOptions,
): Promise<AppendResult> => {
  const citations = await citationsFor(read.state, report, options.repo);
  const { repo: _, result, ...actor } = options;
  return appendRecorded(
    store,
    read.runId,
    report,
    { citations, result },
    citations === undefined ? actor : { ...actor, expectedSeq: options.expectedSeq ?? read.lastSeq },
  );
};

/** Record untrusted JSON as a round report: its shape checked once (`parseReport`), then `recordReport`. */
export const recordUntrustedReport = (
  store: StoreRef,
  runId: string,
  input: unknown,
  options: RecordOptions,
): Promise<AppendResult> => {
  const parsed = parseReport(input);
  if (E.isLeft(parsed)) return Promise.reject(refusal(parsed.left));
  return recordReport(store, runId, parsed.right, options);
};

/**
 * Record a review written as Markdown (findings, decisions, a Not examined section, a `Verdict:`
 * line): it becomes the next round's report and faces the same rules. Its bracketed words are
 * read against the run's own severities, so the log is read before the review is; that one read
 * (from the checkpoint) also gives the citations their capture.
 */
export const recordFindingsMarkdown = async (
  store: StoreRef,
  runId: string,
  review: string | Uint8Array,
  options: RecordOptions,
): Promise<AppendResult> => {
  const read = await foldIntactFromCheckpoint(store, runId);
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
