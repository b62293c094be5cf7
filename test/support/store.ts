import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { PRESETS, type RunState, roundRecorded } from '../../src/index.js';
import { forgetCheckpoint } from '../../src/store/checkpoint.js';
import { append, fileStore, openRun, runPaths } from '../../src/store/index.js';
import { foldRunFile } from '../../src/store/read.js';
import { candidate, decision, report, sha } from './builders.js';

export const by = 'tester';

/** A run with round 1 recorded (one major in src/service.js) and round 2 captured touching it. */
export const runAwaitingRound2 = async (dir: string, runId = 'run-1') => {
  await openRun(
    fileStore(dir),
    { runId, policy: PRESETS.default, subject: {}, consent: { by } },
    { by, capture: { round: 1, inputSha: sha('A'), touchedFiles: [], renames: [] } },
  );
  await append(dir, runId, [roundRecorded(report(1, 'A', { runId, candidates: [candidate()] }))], { by });
  await append(
    dir,
    runId,
    [
      {
        type: 'revision.captured',
        data: { round: 2, inputSha: sha('B'), touchedFiles: ['src/service.js'], renames: [] },
      },
    ],
    { by },
  );
  return runPaths(dir, runId);
};

export const round2Fixing = (runId = 'run-1') =>
  report(2, 'B', { runId, decisions: [decision(candidate(), 'fixed')] });

export const bytesOf = (file: string): Promise<Buffer> => readFile(file);

/** Split a log into its lines (without the trailing newline of the last). */
export const linesOf = (bytes: Buffer): string[] => bytes.toString('utf8').split('\n').slice(0, -1);

/**
 * The state a fresh process reads from the run's checkpoint file: its state and the lines after it
 * folded (never the log from the start: the checkpoint must serve).
 */
export const stateFromCheckpoint = (dir: string, runId = 'run-1'): RunState => {
  forgetCheckpoint(runPaths(dir, runId).log);
  const read = foldRunFile(dir, runId);
  expect(read).toMatchObject({ fromCheckpoint: true, issue: null });
  return read.state;
};
