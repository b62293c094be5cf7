import { readdir, readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  isClearanceError,
  operations,
  PRESETS,
  roundRecorded,
  sha256Hex,
  ZERO_HASH,
} from '../../src/index.js';
import { append, fileStore, listRuns, openRun, readRun, runPaths } from '../../src/store/index.js';
import { report } from '../support/builders.js';
import { by, bytesOf, linesOf, round2Fixing, runAwaitingRound2 } from '../support/store.js';
import { tempDir } from '../support/tmp.js';

const codeOf = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (e) {
    if (isClearanceError(e)) return e.code;
    throw e;
  }
  throw new Error('expected a ClearanceError');
};

describe('the run log', () => {
  it('chains every line to the hash of the one before it, from seq 1', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const lines = linesOf(await bytesOf(paths.log));
    expect(lines).toHaveLength(4);
    lines.forEach((line, i) => {
      const e = JSON.parse(line) as { seq: number; prev: string };
      expect(Object.keys(e)).toEqual(['seq', 'type', 'v', 'at', 'by', 'prev', 'data']);
      expect(e.seq).toBe(i + 1);
      expect(e.prev).toBe(i === 0 ? ZERO_HASH : sha256Hex(lines[i - 1] as string));
    });
    const head = await readFile(paths.head, 'utf8');
    expect(head).toHaveLength(128);
    expect(JSON.parse(head)).toEqual({ seq: 4, hash: sha256Hex(lines[3] as string) });
  });

  it('opens a run exclusively, leaving no temporary file behind', async () => {
    const dir = await tempDir();
    await runAwaitingRound2(dir);
    const again = openRun(
      fileStore(dir),
      { runId: 'run-1', policy: PRESETS.default, subject: {}, consent: { by } },
      { by },
    );
    expect(await codeOf(again)).toBe('run-exists');
    // beside the run's files only the appending processes' lock owner files (src/store/lock-owner-file.ts)
    expect((await readdir(runPaths(dir, 'run-1').runs)).sort()).toEqual([
      '.lock-owners',
      'run-1.fold',
      'run-1.head',
      'run-1.jsonl',
    ]);
    expect(await listRuns(dir)).toEqual(['run-1']);
  });

  it('a refused append writes nothing: the log is byte-for-byte unchanged', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const before = await bytesOf(paths.log);
    const record = (r: ReturnType<typeof report>) =>
      operations.record(
        { store: fileStore(dir), by },
        { runId: 'run-1', source: { kind: 'report', report: r } },
      );
    expect(await codeOf(record(report(2, 'B')))).toBe('missing-decision');
    expect(await codeOf(record({ ...round2Fixing(), runId: 'run-2' }))).toBe('wrong-run');
    expect(await codeOf(append(dir, 'run-1', [roundRecorded(round2Fixing())], { by, expectedSeq: 3 }))).toBe(
      'seq-mismatch',
    );
    expect(await bytesOf(paths.log)).toEqual(before);
    const accepted = await append(dir, 'run-1', [roundRecorded(round2Fixing())], { by, expectedSeq: 4 });
    expect(accepted.appended.map((e) => e.seq)).toEqual([5]);
    expect(accepted.folded.state.status).toBe('converged');
  });

  it('a torn tail is reported and ignored by readers, and truncated by the next append', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const acknowledged = await bytesOf(paths.log);
    const partial =
      '{"seq":5,"type":"round.recorded","v":1,"at":"2026-11-30T07:00:00.000Z","by":"crashed","prev":"';
    await writeFile(paths.log, Buffer.concat([acknowledged, Buffer.from(partial)]));
    const read = await readRun(fileStore(dir), 'run-1');
    expect(read.issue).toBeNull();
    expect(read.tornTail).toEqual({ offset: acknowledged.length, bytes: partial.length });
    expect(read.lastSeq).toBe(4);
    const result = await append(dir, 'run-1', [roundRecorded(round2Fixing())], { by });
    expect(result.repairedTail).toEqual({ offset: acknowledged.length, bytes: partial.length });
    const after = await bytesOf(paths.log);
    expect(after.subarray(0, acknowledged.length)).toEqual(acknowledged);
    expect(linesOf(after)).toHaveLength(5);
    expect((await readRun(fileStore(dir), 'run-1')).tornTail).toBeNull();
  });

  it('lists runs, ignoring anything that is not a run log', async () => {
    const dir = await tempDir();
    expect(await listRuns(dir)).toEqual([]);
    await runAwaitingRound2(dir, 'b-run');
    await runAwaitingRound2(dir, 'a-run');
    await writeFile(`${runPaths(dir, 'a-run').runs}/notes.txt`, 'x');
    expect(await listRuns(dir)).toEqual(['a-run', 'b-run']);
  });
});
