import { readdir } from 'node:fs/promises';
import { runsDir } from './paths.js';
import { isRunId } from './safe-run-id.js';

/** The ids of every run in a store, sorted; an empty or missing store has none. */
export const listRuns = async (dir: string): Promise<ReadonlyArray<string>> => {
  let names: string[];
  try {
    names = await readdir(runsDir(dir));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => n.slice(0, -'.jsonl'.length))
    .filter(isRunId)
    .sort();
};
