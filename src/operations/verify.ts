import { ClearanceError } from '../errors.js';
import { checkObjects, type ObjectProblem } from '../store/objects.js';
import { foldRunFromStart, integrityError, type RunStateRead } from '../store/read.js';
import type { OperationContext } from './context.js';
import type { ResultOf, VerifyOutput } from './schemas/results.js';

/** What `verify` found in one run: what the schema pins, and what it lets through. */
export type VerifiedRun = ResultOf<typeof VerifyOutput>['runs'][number] &
  Readonly<{
    lastHash: string;
    head: RunStateRead['head']['state'];
    beyondHead: number;
    tornTail: RunStateRead['tornTail'];
    issue: RunStateRead['issue'];
    objects: ReadonlyArray<ObjectProblem>;
    refused: number;
  }>;

export type VerifyInput = Readonly<{ runId?: string }>;
export type VerifyResult = Omit<ResultOf<typeof VerifyOutput>, 'runs'> &
  Readonly<{ runs: ReadonlyArray<VerifiedRun> }>;

const verified = (read: RunStateRead, objects: ReadonlyArray<ObjectProblem>): VerifiedRun => ({
  runId: read.runId,
  intact: read.issue === null && objects.length === 0,
  events: read.events,
  lastSeq: read.lastSeq,
  lastHash: read.lastHash,
  head: read.head.state,
  beyondHead: read.beyondHead,
  tornTail: read.tornTail,
  issue: read.issue,
  objects,
  refused: read.refused,
});

/**
 * Check a run (or every run) from every byte: each line decodes, seq has no gaps, the hash chain
 * and the head anchor hold, every archived output is there. No checkpoint is trusted. A damaged run
 * is the `integrity` error, its details holding every run's result (`describe` in the CLI says them).
 */
export const verify = async (ctx: OperationContext, input: VerifyInput): Promise<VerifyResult> => {
  const ids = input.runId === undefined ? await ctx.store.listRuns() : [input.runId];
  const runs: VerifiedRun[] = [];
  let damaged: RunStateRead | undefined;
  // one run at a time, keeping its summary only
  for (const id of ids) {
    const read = await foldRunFromStart(ctx.store, id);
    if (read.issue !== null) damaged ??= read;
    runs.push(verified(read, read.issue === null ? await checkObjects(ctx.store, id, read.outputs) : []));
  }
  if (damaged !== undefined) {
    const error = integrityError(damaged) as ClearanceError;
    throw new ClearanceError('integrity', error.message, { ...error.details, runs });
  }
  const archive = runs.find((r) => r.objects.length > 0);
  if (archive !== undefined) {
    throw new ClearanceError(
      'integrity',
      `run ${archive.runId}'s archive is missing or has changed outputs its log names`,
      { runs },
    );
  }
  return { runs };
};
