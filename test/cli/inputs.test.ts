import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, report, sha } from '../support/builders.js';
import { runInProcess, snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

const RUN = 'run-1';
const errorOf = (json: Record<string, unknown> | undefined) =>
  json?.error as { code: string; message: string; details: Record<string, unknown> };

const setup = async () => {
  const dir = await tempDir();
  const cli = (...args: string[]) => runInProcess(['--dir', dir, ...args, '--json']);
  const opened = await cli('open', RUN, '--input-sha', sha('A'));
  expect(opened.code).toBe(0);
  const file = async (name: string, content: string | Uint8Array) => {
    const at = path.join(dir, '..', `${path.basename(dir)}-${name}`);
    await writeFile(at, content);
    return at;
  };
  return { dir, cli, file };
};

const valid = JSON.stringify(report(1, 'A', { runId: RUN, candidates: [candidate()] }));

describe('every input is bounded: never more than --max-bytes + 1 bytes, oversized (4) beyond', () => {
  it.each([
    ['record --report FILE', (f: string) => ['record', RUN, '--report', f]],
    ['record --findings-md FILE', (f: string) => ['record', RUN, '--findings-md', f]],
    ['open --policy-file FILE', (f: string) => ['open', 'run-2', '--policy-file', f]],
    ['stage --finish --output FILE', (f: string) => ['stage', RUN, 'planning', '--finish', '--output', f]],
    ['publish --report FILE', (f: string) => ['publish', `${f}.out`, '--report', f]],
  ])('%s', async (_what, argv) => {
    const { dir, cli, file } = await setup();
    const big = await file('big', 'x'.repeat(101));
    const before = await snapshot(dir);
    const result = await cli(...argv(big), '--max-bytes', '100');
    expect([result.code, errorOf(result.json).code]).toEqual([4, 'oversized']);
    expect(errorOf(result.json).details).toMatchObject({ maxBytes: 100, bytesRead: 101 });
    expect(await snapshot(dir)).toEqual(before);
  });

  it('standard input is read no further than the bound, and exactly the bound is accepted', async () => {
    const { dir, cli } = await setup();
    const before = await snapshot(dir);
    const over = await runInProcess(
      ['--dir', dir, 'record', RUN, '--report', '-', '--max-bytes', String(valid.length - 1), '--json'],
      {
        stdin: valid,
      },
    );
    expect([over.code, errorOf(over.json).details.bytesRead]).toEqual([4, valid.length]);
    expect(await snapshot(dir)).toEqual(before);
    const exact = await runInProcess(
      ['--dir', dir, 'record', RUN, '--report', '-', '--max-bytes', String(valid.length), '--json'],
      {
        stdin: valid,
      },
    );
    expect(exact.code).toBe(0);
    expect((await cli('status', RUN)).json).toMatchObject({ ok: true });
  });

  it('the default bound is 4 MiB', async () => {
    const { cli, file } = await setup();
    const big = await file('big', Buffer.alloc(4 * 1024 * 1024 + 1, 0x20));
    const result = await cli('record', RUN, '--report', big);
    expect(errorOf(result.json).details).toMatchObject({ maxBytes: 4 * 1024 * 1024 });
  });
});

describe('input is what was sent', () => {
  it.each([
    ['record --report', 'invalid-report', (f: string) => ['record', RUN, '--report', f], 1],
    ['record --findings-md', 'findings-md-invalid', (f: string) => ['record', RUN, '--findings-md', f], 1],
    ['open --policy-file', 'invalid-policy', (f: string) => ['open', 'run-2', '--policy-file', f], 1],
    ['publish --report', 'invalid-report', (f: string) => ['publish', `${f}.out`, '--report', f], 1],
  ])('%s refuses bytes that are not UTF-8, naming the offset', async (_what, code, argv, exit) => {
    const { dir, cli, file } = await setup();
    const bad = await file(
      'bad',
      Buffer.concat([Buffer.from('{"runId":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    );
    const before = await snapshot(dir);
    const result = await cli(...argv(bad));
    expect([result.code, errorOf(result.json).code]).toEqual([exit, code]);
    expect(errorOf(result.json).message).toContain('offset 10');
    expect(errorOf(result.json).details.offset).toBe(10);
    expect(await snapshot(dir)).toEqual(before);
  });

  it.each([
    ['a duplicated key', valid.replace('"round":1', '"round":1,"round":2'), 'round'],
    [
      'an integer JSON cannot carry',
      valid.replace('"line":10', '"line":9007199254740993'),
      'candidates[0].line',
    ],
    ['a lone surrogate', valid.replace('"Missing close"', '"Missing \\ud800close"'), 'candidates[0].summary'],
  ])('record refuses %s, naming where, and the log is unchanged', async (_what, text, at) => {
    const { dir, cli, file } = await setup();
    const before = await snapshot(dir);
    const result = await cli('record', RUN, '--report', await file('r.json', text));
    expect([result.code, errorOf(result.json).code]).toEqual([1, 'invalid-report']);
    expect(errorOf(result.json).details.at).toBe(at);
    expect(await snapshot(dir)).toEqual(before);
  });

  it('a policy file with a duplicated key is refused', async () => {
    const { cli, file } = await setup();
    const policy = await file(
      'p.json',
      '{"name":"a","name":"b","maxRounds":2,"severities":{"major":{"blocks":true}}}',
    );
    const result = await cli('open', 'run-2', '--policy-file', policy);
    expect([result.code, errorOf(result.json).code, errorOf(result.json).details.at]).toEqual([
      1,
      'invalid-policy',
      'name',
    ]);
  });

  it('a stage output is archived byte for byte, whatever its bytes (it is not text)', async () => {
    const { cli, file } = await setup();
    expect((await cli('stage', RUN, 'planning', '--start')).code).toBe(0);
    const bytes = Buffer.from([0xff, 0x00, 0xc3, 0x28]);
    const finished = await cli(
      'stage',
      RUN,
      'planning',
      '--finish',
      '--output',
      await file('out.bin', bytes),
    );
    expect(finished.code).toBe(0);
    const { createHash } = await import('node:crypto');
    expect(finished.json?.outputSha).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});
