import { copyFile, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClearanceError, PRESETS } from '../../src/index.js';
import { forgetCheckpoint } from '../../src/store/checkpoint.js';
import { append, archiveOutput, fileStore, openRun, runPaths } from '../../src/store/index.js';
import { by, bytesOf, runAwaitingRound2 } from '../support/store.js';
import { tempDir } from '../support/tmp.js';

const capture = [
  {
    type: 'revision.captured' as const,
    data: { round: 2, inputSha: 'planted', touchedFiles: [], renames: [] },
  },
];

const codeOf = (e: unknown) => (isClearanceError(e) ? e.code : e);

/** A file outside the store that a planted link points to; it must never change. */
const outsider = async (dir: string, name = 'outside.txt') => {
  const file = path.join(dir, name);
  await writeFile(file, 'not the store\n');
  return file;
};

describe('no write follows a symbolic link planted inside the store', () => {
  it('the log: an append through a link to it is refused, and the file it points to is unchanged', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const real = path.join(dir, 'real.jsonl');
    await copyFile(paths.log, real);
    const before = await bytesOf(real);
    await rename(paths.log, `${paths.log}.moved`);
    await symlink(real, paths.log);
    forgetCheckpoint(paths.log);
    expect(codeOf(await append(dir, 'run-1', capture, { by }).catch((e: unknown) => e))).toBe('unsafe-path');
    expect(await bytesOf(real)).toEqual(before);
  });

  it('the head anchor: the append is refused before the log is written', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const outside = await outsider(dir);
    const log = await bytesOf(paths.log);
    await rename(paths.head, `${paths.head}.moved`);
    await symlink(outside, paths.head);
    expect(codeOf(await append(dir, 'run-1', capture, { by }).catch((e: unknown) => e))).toBe('unsafe-path');
    expect(await bytesOf(paths.log)).toEqual(log);
    expect(await readFile(outside, 'utf8')).toBe('not the store\n');
  });

  it('the fold checkpoint: never written through (the append itself succeeds: the checkpoint is only an aid)', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const outside = await outsider(dir);
    await rename(paths.cache, `${paths.cache}.moved`);
    await symlink(outside, paths.cache);
    const result = await append(dir, 'run-1', capture, { by });
    expect(result.appended[0]?.seq).toBe(5);
    expect(await readFile(outside, 'utf8')).toBe('not the store\n');
  });

  it('a new run: a head planted before it exists refuses the open, leaving no log and no temporary file', async () => {
    const dir = await tempDir();
    const paths = runPaths(dir, 'fresh');
    await mkdir(paths.runs, { recursive: true });
    const outside = await outsider(dir);
    await symlink(outside, paths.head);
    const opened = openRun(
      fileStore(dir),
      { runId: 'fresh', policy: PRESETS.default, subject: {}, consent: { by } },
      { by },
    );
    expect(codeOf(await opened.catch((e: unknown) => e))).toBe('unsafe-path');
    expect((await readdir(paths.runs)).sort()).toEqual(['fresh.head']);
    expect(await readFile(outside, 'utf8')).toBe('not the store\n');
  });

  it('the output archive: a linked run directory, objects directory or output is refused', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const elsewhere = path.join(dir, 'elsewhere');
    await mkdir(elsewhere);
    // the objects directory
    await mkdir(path.dirname(paths.objects), { recursive: true });
    await symlink(elsewhere, paths.objects);
    expect(codeOf(await archiveOutput(dir, 'run-1', Buffer.from('out')).catch((e: unknown) => e))).toBe(
      'unsafe-path',
    );
    expect(await readdir(elsewhere)).toEqual([]);
    // the run's directory
    const other = runPaths(dir, 'run-2');
    await runAwaitingRound2(dir, 'run-2');
    await symlink(elsewhere, path.dirname(other.objects));
    expect(codeOf(await archiveOutput(dir, 'run-2', Buffer.from('out')).catch((e: unknown) => e))).toBe(
      'unsafe-path',
    );
    expect(await readdir(elsewhere)).toEqual([]);
    // an output's own name
    const third = runPaths(dir, 'run-3');
    await runAwaitingRound2(dir, 'run-3');
    await mkdir(third.objects, { recursive: true });
    const outside = await outsider(dir);
    const { sha256Hex } = await import('../../src/events/sha256.js');
    await symlink(outside, path.join(third.objects, sha256Hex('out')));
    expect(codeOf(await archiveOutput(dir, 'run-3', Buffer.from('out')).catch((e: unknown) => e))).toBe(
      'unsafe-path',
    );
    expect(await readFile(outside, 'utf8')).toBe('not the store\n');
  });

  it('runs/ itself: a linked runs directory refuses an open and an append, writing nothing where it points', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    // the run's files moved out of the store, and runs/ made a link to where they now are
    const elsewhere = path.join(await tempDir(), 'runs');
    await rename(paths.runs, elsewhere);
    await symlink(elsewhere, paths.runs);
    const listing = async () =>
      Promise.all(
        (await readdir(elsewhere, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
          .sort()
          .map(async (f) => [f, await bytesOf(f)]),
      );
    const before = await listing();
    forgetCheckpoint(paths.log);
    expect(codeOf(await append(dir, 'run-1', capture, { by }).catch((e: unknown) => e))).toBe('unsafe-path');
    const opened = openRun(
      fileStore(dir),
      { runId: 'fresh', policy: PRESETS.default, subject: {}, consent: { by } },
      { by },
    );
    expect(codeOf(await opened.catch((e: unknown) => e))).toBe('unsafe-path');
    expect(await listing()).toEqual(before);
  });
});
