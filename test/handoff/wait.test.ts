import { execFile } from 'node:child_process';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type ClearanceError, isClearanceError } from '../../src/errors.js';
import {
  DEFAULT_MAX_BYTES,
  type ExpectedReport,
  publishReport,
  type WaitOptions,
  waitForReport,
} from '../../src/handoff/index.js';
import { parseReport } from '../../src/index.js';
import { candidate, sha } from '../support/builders.js';
import { EXPECTED, realisticReport, roundReport } from './support/reports.js';
import { useTempDir } from './support/temp-dir.js';

// Long enough that a wait which should fail "at once" could only reach this deadline by being wrong:
// the failing code (not `timeout`) is what proves it failed at once, never a measured duration.
const PATIENT: WaitOptions = { timeoutMs: 20_000, pollMs: 50 };

const rejection = async (wait: Promise<unknown>): Promise<ClearanceError> => {
  const outcome = await wait.then(
    (value) => ({ settled: 'resolved' as const, value }),
    (error: unknown) => ({ settled: 'rejected' as const, error }),
  );
  if (outcome.settled === 'resolved')
    throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  if (!isClearanceError(outcome.error)) throw outcome.error;
  return outcome.error;
};

const expectNamesTheWait = (error: ClearanceError, path: string, expected: ExpectedReport = EXPECTED) => {
  expect(error.message).toContain(path);
  expect(error.message).toContain(
    `run "${expected.runId}", round ${expected.round}, input "${expected.inputSha}"`,
  );
  expect(error.message).toMatch(/waited \d+ ms/);
  expect(error.details).toMatchObject({ path, expected: { ...expected }, waitedMs: expect.any(Number) });
};

describe('waitForReport: what counts as an answer', () => {
  const dir = useTempDir();

  it('accepts a complete matching report published while a stray partial temporary file sits beside it', async () => {
    const path = join(dir(), 'report.json');
    // what a crashed producer leaves behind: a temporary file cut off mid-write, never renamed
    await writeFile(join(dir(), `.report.json.4242.9f8e7d6c5b4a.tmp`), '{"runId":"run-c","round":2,"inp');
    const waiting = waitForReport(path, EXPECTED, PATIENT);
    await publishReport(path, roundReport());
    const got = await waiting;
    expect(got.report).toEqual(roundReport());
    expect(got.bytes).toBe(Buffer.byteLength(`${JSON.stringify(roundReport())}\n`));
    expect(got.waitedMs).toBeGreaterThanOrEqual(0);
  });

  it('accepts a report already in place, and returns it as the schema parsed it (defaults filled in)', async () => {
    const path = join(dir(), 'report.json');
    const { candidates: _, decisions: __, ...bare } = roundReport();
    await publishReport(path, bare);
    const got = await waitForReport(path, EXPECTED, PATIENT);
    expect(got.report).toEqual({ ...bare, candidates: [], decisions: [] });
  });

  it('accepts a real ~70 KB multi-finder report under the default maxBytes', async () => {
    const real = realisticReport();
    const path = join(dir(), 'report.json');
    await publishReport(path, real);
    const got = await waitForReport(path, { runId: real.runId, round: real.round, inputSha: real.inputSha });
    expect(got.bytes).toBeGreaterThan(64 * 1024);
    expect(got.report.candidates).toHaveLength(36);
    expect(got.report.decisions).toHaveLength(35);
    expect(got.report).toEqual(real);
  });

  it('times out on a report for the wrong input revision, and says what it last saw', async () => {
    const path = join(dir(), 'report.json');
    const stale = { ...EXPECTED, inputSha: sha('c1') };
    await publishReport(path, roundReport(stale));
    const error = await rejection(waitForReport(path, EXPECTED, { timeoutMs: 300, pollMs: 10 }));
    expect(error.code).toBe('timeout');
    expectNamesTheWait(error, path);
    expect(error.message).toContain(`input "${sha('c1')}", which was ignored`);
    expect(error.details).toMatchObject({ timeoutMs: 300, lastSeen: stale, ignored: expect.any(Number) });
    expect(error.details.ignored).toBeGreaterThanOrEqual(1);
  });

  it('times out on a report for another run or another round', async () => {
    for (const other of [
      { ...EXPECTED, runId: 'run-b' },
      { ...EXPECTED, round: 1 },
    ]) {
      const path = join(dir(), `${other.runId}-${other.round}.json`);
      await publishReport(path, roundReport(other));
      const error = await rejection(waitForReport(path, EXPECTED, { timeoutMs: 200, pollMs: 10 }));
      expect(error.code).toBe('timeout');
      expect(error.details.lastSeen).toEqual(other);
    }
  });

  it('ignores a stale report of another run even when it is itself broken (binding is checked first)', async () => {
    const path = join(dir(), 'report.json');
    await publishReport(path, {
      runId: 'run-a',
      round: 2,
      inputSha: EXPECTED.inputSha,
      completed: 'yes',
      extra: 1,
    });
    const error = await rejection(waitForReport(path, EXPECTED, { timeoutMs: 200, pollMs: 10 }));
    expect(error.code).toBe('timeout');
    expect(error.details.lastSeen).toMatchObject({ runId: 'run-a' });
  });

  it('does not accept a report published after the deadline, although the file is there afterwards', async () => {
    const path = join(dir(), 'report.json');
    const timeoutMs = 80;
    const waiting = waitForReport(path, EXPECTED, { timeoutMs, pollMs: 50 });
    // Scheduled after the wait fixed its deadline, for 10 ms past it (a timer may fire up to a
    // millisecond early): the rename lands after the deadline, so only a wait that reads past its
    // deadline (a settling phase, a grace read, a sleep not capped by what remains) could see it.
    const late = new Promise<void>((resolve, reject) => {
      setTimeout(() => publishReport(path, roundReport()).then(resolve, reject), timeoutMs + 10);
    });
    const error = await rejection(waiting);
    await late;
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('no report for it appeared');
    expectNamesTheWait(error, path);
    expect((await waitForReport(path, EXPECTED, PATIENT)).report).toEqual(roundReport());
  });

  it('times out when nothing is ever published, and when the directory does not even exist', async () => {
    for (const path of [join(dir(), 'report.json'), join(dir(), 'not', 'yet', 'report.json')]) {
      const error = await rejection(waitForReport(path, EXPECTED, { timeoutMs: 50, pollMs: 10 }));
      expect(error.code).toBe('timeout');
      expectNamesTheWait(error, path);
      expect(error.details).not.toHaveProperty('lastSeen');
    }
  });

  it('finds a report published into a directory created after the wait started (polling, no watch)', async () => {
    const path = join(dir(), 'later', 'report.json');
    const waiting = waitForReport(path, EXPECTED, PATIENT);
    await mkdir(join(dir(), 'later'));
    await publishReport(path, roundReport());
    expect((await waiting).report).toEqual(roundReport());
  });

  it('finds the report by polling alone when the watch is disabled', async () => {
    const path = join(dir(), 'report.json');
    const waiting = waitForReport(path, EXPECTED, { ...PATIENT, watch: false });
    await publishReport(path, roundReport());
    expect((await waiting).report).toEqual(roundReport());
  });
});

describe('waitForReport: a matching answer that is wrong fails at once', () => {
  const dir = useTempDir();

  const failsWith = async (code: string, contents: string | object, options: WaitOptions = PATIENT) => {
    const path = join(dir(), 'report.json');
    if (typeof contents === 'string') await writeFile(path, contents);
    else await publishReport(path, contents);
    const error = await rejection(waitForReport(path, EXPECTED, options));
    expect(error.code).toBe(code);
    expectNamesTheWait(error, path);
    return error;
  };

  it('fails an incomplete matching report (completed: false)', async () => {
    const error = await failsWith('incomplete', roundReport(EXPECTED, { completed: false }));
    expect(error.message).toContain('not complete (completed is false)');
  });

  it('fails a matching report with no completed flag as incomplete', async () => {
    const { completed: _, ...noFlag } = roundReport();
    expect((await failsWith('incomplete', noFlag)).message).toContain('completed is missing');
  });

  it('fails bytes that are not JSON ("{", a torn in-place write) as malformed', async () => {
    expect((await failsWith('malformed', '{')).message).toContain('not JSON');
  });

  it('fails invalid UTF-8 as malformed', async () => {
    const path = join(dir(), 'report.json');
    await writeFile(path, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect((await rejection(waitForReport(path, EXPECTED, PATIENT))).code).toBe('malformed');
  });

  it.each([
    ['null', 'null'],
    ['[]', 'an array'],
    ['"x"', 'a string'],
    ['42', 'a number'],
  ])('fails JSON that is not an object (%s) as malformed', async (text, what) => {
    const error = await failsWith('malformed', text);
    expect(error.message).toContain(`it holds ${what}, not a report object`);
  });

  it('fails a matching report that breaks the schema as malformed, quoting the schema', async () => {
    const { summary, ...rest } = candidate();
    const misspelt = roundReport(EXPECTED, { candidates: [{ ...rest, sumary: summary } as never] });
    const error = await failsWith('malformed', misspelt);
    const parsed = parseReport(misspelt);
    if (parsed._tag === 'Right') throw new Error('the fixture should fail the schema');
    expect(error.message).toContain('failed the report schema');
    expect(error.message).toContain(parsed.left.message);
    expect(error.message).toContain('unknown key "sumary" in candidates[0]');
  });

  it('fails a report larger than maxBytes as oversized', async () => {
    const real = realisticReport();
    const expected = { runId: real.runId, round: real.round, inputSha: real.inputSha };
    const path = join(dir(), 'report.json');
    await publishReport(path, real);
    const error = await rejection(waitForReport(path, expected, { ...PATIENT, maxBytes: 16 * 1024 }));
    expect(error.code).toBe('oversized');
    expectNamesTheWait(error, path, expected);
    expect(error.details).toMatchObject({ maxBytes: 16 * 1024, bytesRead: 16 * 1024 + 1 });
    expect(error.details.bytes).toBeGreaterThan(64 * 1024);
  });

  it('fails a file far larger than maxBytes as oversized after reading only maxBytes + 1 bytes', async () => {
    const path = join(dir(), 'report.json');
    // 8 GiB, sparse: a reader that did not stop at maxBytes + 1 could not even hold it in a Buffer
    // (Node refuses files over 2 GiB in readFile), so it would fail with another error.
    const huge = 8 * 1024 ** 3;
    const handle = await open(path, 'w');
    await handle.write('{"runId":"run-c","round":2,');
    await handle.truncate(huge);
    await handle.close();
    const error = await rejection(waitForReport(path, EXPECTED, PATIENT));
    expect(error.code).toBe('oversized');
    expect(error.details).toMatchObject({
      maxBytes: DEFAULT_MAX_BYTES,
      bytesRead: DEFAULT_MAX_BYTES + 1,
      bytes: huge,
    });
    expect(error.message).toContain(`larger than maxBytes ${DEFAULT_MAX_BYTES}`);
  });

  it('fails a directory at the report path as malformed', async () => {
    const path = join(dir(), 'report.json');
    await mkdir(path);
    const error = await rejection(waitForReport(path, EXPECTED, PATIENT));
    expect(error.code).toBe('malformed');
    expect(error.message).toContain('the report path is a directory');
  });

  it.skipIf(process.platform === 'win32')(
    'fails a FIFO at the report path as malformed, without blocking on it',
    async () => {
      const path = join(dir(), 'report.json');
      await promisify(execFile)('mkfifo', [path]);
      // No writer ever opens the FIFO: a plain open for reading would block for ever, past any deadline.
      const error = await rejection(waitForReport(path, EXPECTED, PATIENT));
      expect(error.code).toBe('malformed');
      expect(error.message).toContain('the report path is a FIFO');
    },
  );
});
