import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, report, sha } from '../support/builders.js';
import { type CliOptions, cli, cliEach } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/** A run with 4 lines: opened, captured, round 1, captured. */
const fourLineRun = async () => {
  const dir = await tempDir();
  const file = path.join(dir, 'r1.json');
  await writeFile(file, JSON.stringify(report(1, 'A', { candidates: [candidate()] })));
  await cli(['--dir', dir, 'open', 'run-1', '--input-sha', sha('A')]);
  await cli(['--dir', dir, 'record', 'run-1', '--report', file]);
  await cli(['--dir', dir, 'capture', 'run-1', '--input-sha', sha('B'), '--touched', 'src/service.js']);
  const log = path.join(dir, 'runs', 'run-1.jsonl');
  const lines = (await readFile(log, 'utf8')).split('\n').slice(0, -1);
  expect(lines).toHaveLength(4);
  return { dir, log, lines };
};

/**
 * How to run the CLI as uid 65534 (nobody) when the suite runs as root, for whom permissions do
 * not bite. `cli` copies the built CLI where that uid can reach it (test/support/cli.ts).
 */
const asNobody = async (): Promise<CliOptions> =>
  process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

const verifyAfter = async (change: (lines: string[], bytes: Buffer) => Buffer) => {
  const { dir, log, lines } = await fourLineRun();
  await writeFile(log, change(lines, await readFile(log)));
  return cli(['--dir', dir, 'verify', 'run-1']);
};

describe('verify finds tampering and names the line', () => {
  it('a flipped byte', async () => {
    const result = await verifyAfter((lines, bytes) => {
      const copy = Buffer.from(bytes);
      const at = Buffer.byteLength(`${lines[0]}\n`) + 30;
      copy[at] = (copy[at] as number) ^ 0x01;
      return copy;
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/run-1: DAMAGED at line (2|3) \(byte \d+\)/);
  });

  it('a deleted line', async () => {
    const result = await verifyAfter((l) => Buffer.from(`${[l[0], l[2], l[3]].join('\n')}\n`));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/DAMAGED at line 2 .*seq 3 where 2 was expected/);
  });

  it('two swapped lines', async () => {
    const result = await verifyAfter((l) => Buffer.from(`${[l[0], l[1], l[3], l[2]].join('\n')}\n`));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/DAMAGED at line 3 .*seq 4 where 3 was expected/);
  });

  it('a truncated middle line', async () => {
    let offset = -1;
    const result = await verifyAfter((l) => {
      offset = Buffer.byteLength(`${l[0]}\n`);
      return Buffer.from(`${[l[0], (l[1] as string).slice(0, 25), l[2], l[3]].join('\n')}\n`);
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`DAMAGED at line 2 (byte ${offset}): not JSON`);
  });

  it('a torn tail is reported, not an error, and the next append repairs it', async () => {
    const { dir, log } = await fourLineRun();
    const intact = await readFile(log);
    await writeFile(log, Buffer.concat([intact, Buffer.from('{"seq":5,"type":"revis')]));
    const verify = await cli(['--dir', dir, 'verify', 'run-1']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/a torn tail of 22 byte\(s\) at byte \d+ \(never acknowledged; ignored\)/);
    const status = await cli(['--dir', dir, 'status', 'run-1', '--json']);
    expect(status.json).toMatchObject({ ok: true, seq: 4, tornTail: { offset: intact.length, bytes: 22 } });
    const append = await cli(['--dir', dir, 'capture', 'run-1', '--input-sha', sha('C'), '--json']);
    expect(append.code).toBe(0);
    expect(append.json.seq).toBe(5);
    expect((await readFile(log)).subarray(0, intact.length)).toEqual(intact);
    expect((await cli(['--dir', dir, 'verify', 'run-1'])).stdout).not.toMatch(/torn/);
  });

  it('reads take no lock and never write: they work on a read-only log in a read-only directory', async () => {
    const { dir, log } = await fourLineRun();
    const runs = path.dirname(log);
    const names = await readdir(runs);
    // the files (the lock owner files' directory, src/store/lock-owner-file.ts, is left as it is)
    const files = (await readdir(runs, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    const before = await Promise.all(
      files.map(async (f) => [
        f,
        (await stat(path.join(runs, f))).mtimeMs,
        await readFile(path.join(runs, f)),
      ]),
    );
    for (const f of files) await chmod(path.join(runs, f), 0o444);
    await chmod(runs, 0o555);
    await chmod(dir, 0o755);
    const as = await asNobody();
    try {
      const reads = [
        ['status', 'run-1'],
        ['status'],
        ['findings', 'run-1'],
        ['replay', 'run-1'],
        ['explain', 'run-1'],
        ['verify', 'run-1'],
        ['verify'],
      ];
      const results = await cliEach(
        [...reads, ['capture', 'run-1', '--input-sha', 'x']].map((args) => ['--dir', dir, ...args]),
        as,
      );
      reads.forEach((args, i) => {
        expect(results[i]?.code, `${args.join(' ')}: ${results[i]?.stderr}`).toBe(0);
        expect(results[i]?.stdout, args.join(' ')).not.toBe('');
      });
      // the write is refused: it may not take the lock in a directory it cannot write
      expect(results[reads.length]?.code).toBe(77);
      expect(results[reads.length]?.stderr).toContain('[permission-denied]');
    } finally {
      await chmod(runs, 0o755);
    }
    expect((await readdir(runs)).sort()).toEqual([...names].sort());
    const after = await Promise.all(
      files.map(async (f) => [
        f,
        (await stat(path.join(runs, f))).mtimeMs,
        await readFile(path.join(runs, f)),
      ]),
    );
    expect(after).toEqual(before);
  });
});
