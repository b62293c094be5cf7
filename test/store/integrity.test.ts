import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { isClearanceError, roundRecorded } from '../../src/index.js';
import { append, fileStore, readRun } from '../../src/store/index.js';
import { by, bytesOf, linesOf, round2Fixing, runAwaitingRound2 } from '../support/store.js';
import { tempDir } from '../support/tmp.js';

const damage = async (change: (lines: string[]) => string[]) => {
  const dir = await tempDir();
  const paths = await runAwaitingRound2(dir);
  const lines = change(linesOf(await bytesOf(paths.log)));
  await writeFile(paths.log, lines.map((l) => `${l}\n`).join(''));
  const damaged = await bytesOf(paths.log);
  const read = await readRun(fileStore(dir), 'run-1');
  let refusedWith = '';
  try {
    await append(dir, 'run-1', [roundRecorded(round2Fixing())], { by });
  } catch (e) {
    if (isClearanceError(e)) refusedWith = e.code;
  }
  expect(await bytesOf(paths.log)).toEqual(damaged);
  return { read, refusedWith };
};

const flip = (line: string, at: number) =>
  line.slice(0, at) + String.fromCharCode(line.charCodeAt(at) ^ 1) + line.slice(at + 1);

describe('integrity: any damage is found, named by line and offset, and appends are refused', () => {
  it('a flipped byte in a middle line (inside a string, still valid JSON)', async () => {
    const { read, refusedWith } = await damage((l) =>
      l.map((line, i) => (i === 1 ? flip(line, line.indexOf('"by":"') + 6) : line)),
    );
    expect(read.issue?.line).toBe(3);
    expect(read.issue?.cause).toMatch(/prev .* is not the hash of line 2/);
    expect(refusedWith).toBe('integrity');
  });

  it('a flipped byte in the last line is caught by the head anchor', async () => {
    const { read, refusedWith } = await damage((l) =>
      l.map((line, i) => (i === 3 ? flip(line, line.indexOf('"by":"') + 6) : line)),
    );
    expect(read.issue).toMatchObject({
      line: 4,
      cause: expect.stringMatching(/not the line the head anchor recorded/),
    });
    expect(refusedWith).toBe('integrity');
  });

  it('a deleted middle line', async () => {
    const { read } = await damage((l) => l.filter((_, i) => i !== 1));
    expect(read.issue).toMatchObject({ line: 2, cause: expect.stringMatching(/seq 3 where 2 was expected/) });
  });

  it('a deleted last line', async () => {
    const { read, refusedWith } = await damage((l) => l.slice(0, -1));
    expect(read.issue?.cause).toMatch(/ends at seq 3 but its head anchor records seq 4/);
    expect(refusedWith).toBe('integrity');
  });

  it('two swapped lines', async () => {
    const { read } = await damage(([a, b, c, d]) => [a, c, b, d] as string[]);
    expect(read.issue).toMatchObject({ line: 2, cause: expect.stringMatching(/seq 3 where 2 was expected/) });
  });

  it('a truncated middle line, with the byte offset where it starts', async () => {
    let kept: string[] = [];
    const { read } = await damage((l) => {
      kept = l.slice(0, 2);
      return l.map((line, i) => (i === 2 ? line.slice(0, 40) : line));
    });
    expect(read.issue).toMatchObject({ line: 3, cause: expect.stringMatching(/not JSON/) });
    expect(read.issue?.offset).toBe(Buffer.byteLength(kept.map((line) => `${line}\n`).join('')));
  });

  it('an undecodable event names the failing path', async () => {
    const { read } = await damage((l) =>
      l.map((line, i) => (i === 0 ? line.replace('"maxRounds":4', '"maxRounds":"4"') : line)),
    );
    expect(read.issue).toMatchObject({
      line: 1,
      offset: 0,
      cause: expect.stringMatching(/data\.policy\.maxRounds/),
    });
  });
});
