import path from 'node:path';
import { assertRunId } from './safe-run-id.js';

/** Where a store keeps things. Every path to a run goes through `assertRunId` first. */
export type RunPaths = Readonly<{
  runs: string;
  log: string;
  lock: string;
  head: string;
  /** the fold checkpoint (`checkpoint.ts`) */
  cache: string;
  objects: string;
}>;

export const runsDir = (dir: string): string => path.join(dir, 'runs');

export const runPaths = (dir: string, runId: string): RunPaths => {
  const id = assertRunId(runId);
  const runs = runsDir(dir);
  const log = path.join(runs, `${id}.jsonl`);
  return {
    runs,
    log,
    lock: `${log}.lock`,
    head: path.join(runs, `${id}.head`),
    cache: path.join(runs, `${id}.fold`),
    objects: path.join(runs, id, 'objects'),
  };
};
