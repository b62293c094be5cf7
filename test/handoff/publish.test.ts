import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClearanceError } from '../../src/errors.js';
import { publishReport } from '../../src/handoff/index.js';
import { realisticReport, roundReport } from './support/reports.js';
import { useTempDir } from './support/temp-dir.js';

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected publishReport to fail');
    },
    (e: unknown) => e,
  );

describe('publishReport', () => {
  const dir = useTempDir();

  it('writes the report as JSON followed by a newline and leaves nothing else behind', async () => {
    const path = join(dir(), 'report.json');
    await publishReport(path, roundReport());
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(roundReport())}\n`);
    expect(await readdir(dir())).toEqual(['report.json']);
  });

  it('replaces an existing report whole', async () => {
    const path = join(dir(), 'report.json');
    await publishReport(path, realisticReport());
    await publishReport(path, roundReport());
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(roundReport());
    expect(await readdir(dir())).toEqual(['report.json']);
  });

  it('publishes what it is given without validating it (the waiter validates)', async () => {
    const path = join(dir(), 'report.json');
    await publishReport(path, { completed: 'not a report', line: undefined });
    expect(await readFile(path, 'utf8')).toBe('{"completed":"not a report"}\n');
  });

  it('creates the directories missing on the way to the path, as mkdir -p', async () => {
    const path = join(dir(), 'review', 'pr-236', 'round-2.json');
    await publishReport(path, roundReport());
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(roundReport());
    expect(await readdir(join(dir(), 'review', 'pr-236'))).toEqual(['round-2.json']);
  });

  it('fails where a file stands in the way of a directory, and leaves no temporary file', async () => {
    await writeFile(join(dir(), 'review'), 'a file, not a directory');
    const error = await failure(publishReport(join(dir(), 'review', 'round-2.json'), roundReport()));
    expect((error as NodeJS.ErrnoException).code).toMatch(/^(ENOTDIR|EEXIST)$/);
    expect(await readdir(dir())).toEqual(['review']);
  });

  it('removes its temporary file when the rename fails (a directory stands at the path)', async () => {
    const path = join(dir(), 'report.json');
    await mkdir(path);
    const error = await failure(publishReport(path, roundReport()));
    expect((error as NodeJS.ErrnoException).code).toMatch(/^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/);
    expect(await readdir(dir())).toEqual(['report.json']);
    expect(await readdir(path)).toEqual([]);
  });

  it.each([
    ['a BigInt', { ...roundReport(), round: 2n }, 'a BigInt', '"round"'],
    ['NaN', { ...roundReport(), round: Number.NaN }, 'NaN', '"round"'],
    ['Infinity', { ...roundReport(), cost: { usd: Number.POSITIVE_INFINITY } }, 'Infinity', '"usd"'],
    ['a function', { ...roundReport(), reviewer: () => 'me' }, 'a function', '"reviewer"'],
    ['a Map', { ...roundReport(), candidates: new Map() }, 'a Map', '"candidates"'],
    ['undefined in an array', { ...roundReport(), notExamined: [undefined] }, 'undefined', '"0"'],
    ['undefined itself', undefined, 'undefined', 'the report itself'],
  ])('refuses %s (JSON cannot represent it) and writes nothing', async (_, value, what, where) => {
    const path = join(dir(), 'report.json');
    const error = await failure(publishReport(path, value));
    if (!isClearanceError(error)) throw error;
    expect(error.code).toBe('malformed');
    expect(error.message).toContain(`JSON cannot represent ${what}`);
    expect(error.message).toContain(where);
    expect(error.details).toMatchObject({ path });
    expect(await readdir(dir())).toEqual([]);
  });

  it('refuses a cycle and writes nothing', async () => {
    const cyclic: Record<string, unknown> = { ...roundReport() };
    cyclic.self = cyclic;
    const error = await failure(publishReport(join(dir(), 'report.json'), cyclic));
    expect(isClearanceError(error) && error.code).toBe('malformed');
    expect(await readdir(dir())).toEqual([]);
  });
});
