import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isClearanceError } from '../../src/errors.js';
import { publishReport, waitForReport } from '../../src/handoff/index.js';
import {
  bundleCompletion,
  type NodeProcess,
  replacerScript,
  rewriterScript,
  runNode,
} from './support/processes.js';
import { EXPECTED, roundReport } from './support/reports.js';
import { useTempDir } from './support/temp-dir.js';

/** Real producers in other processes, racing a wait in this one. */
describe('waitForReport against producers in other processes', () => {
  const dir = useTempDir();
  let bundle: string;
  const children: NodeProcess[] = [];

  beforeEach(async () => {
    bundle = await bundleCompletion(dir());
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.stop()));
  });

  const start = async (name: string, script: string): Promise<NodeProcess> => {
    const child = await runNode(dir(), name, script);
    children.push(child);
    return child;
  };

  // If a rewrite could extend the wait (a deadline reset on change, or a "wait until the file stops
  // changing" phase), this wait would never end while the rewriter runs, and the test would fail on
  // its own timeout: the rewriter is only stopped after the wait has settled.
  it('a producer continuously replacing stale same-size reports cannot extend a 500 ms budget', async () => {
    const path = join(dir(), 'report.json');
    const staleA = roundReport({ ...EXPECTED, runId: 'run-a' });
    const staleB = roundReport({ ...EXPECTED, runId: 'run-b' });
    expect(JSON.stringify(staleA).length).toBe(JSON.stringify(staleB).length);
    const rewriter = await start('rewriter.mjs', rewriterScript(path, [staleA, staleB]));
    await rewriter.printed('ready');

    // 500 ms, not less: on a loaded machine the first read alone has taken over 80 ms, and a wait
    // that never read the file cannot say what it last held
    const error = await waitForReport(path, EXPECTED, { timeoutMs: 500, pollMs: 10 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(rewriter.child.exitCode).toBeNull();
    if (!isClearanceError(error)) throw new Error(`expected a timeout, got ${String(error)}`);
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(
      /no complete report within 500 ms: the file last held a report of run "run-[ab]"/,
    );
    expect(error.message).toContain('run "run-c", round 2');
    expect(error.details.ignored).toBeGreaterThanOrEqual(1);
    expect(error.details.lastSeen).toMatchObject({ runId: expect.stringMatching(/^run-[ab]$/) });
  }, 20_000);

  it('finds the matching report that replaces a stale one, after a run of stale replacements', async () => {
    const path = join(dir(), 'report.json');
    const staleA = roundReport({ ...EXPECTED, runId: 'run-a' });
    const staleB = roundReport({ ...EXPECTED, inputSha: 'b'.repeat(40) });
    await publishReport(path, staleA);

    const waiting = waitForReport(path, EXPECTED, { timeoutMs: 30_000, pollMs: 50 });
    const replacer = await start(
      'replacer.mjs',
      replacerScript(bundle, path, [staleA, staleB], 40, roundReport()),
    );
    const got = await waiting;
    expect(got.report).toEqual(roundReport());
    await replacer.printed('published');
    expect(await replacer.exited).toBe(0);
  });

  it('finds a report published by another process while a stray temporary file sits beside it', async () => {
    const path = join(dir(), 'report.json');
    const waiting = waitForReport(path, EXPECTED, { timeoutMs: 30_000, pollMs: 50 });
    const script = `
import { writeFileSync } from 'node:fs';
import { publishReport } from ${JSON.stringify(bundle)};
writeFileSync(${JSON.stringify(join(dir(), '.report.json.1.deadbeef0000.tmp'))}, '{"runId":"run-c","rou');
await publishReport(${JSON.stringify(path)}, ${JSON.stringify(roundReport())});
`;
    const producer = await start('producer.mjs', script);
    expect((await waiting).report).toEqual(roundReport());
    expect(await producer.exited).toBe(0);
  });

  // A leaked directory watch keeps a process alive for ever, and a leaked timer keeps it alive past
  // its work: a child that waits through every way a wait can end must then exit on its own with
  // neither left.
  it('leaves no watcher or timer behind on any exit path, so the process can exit', async () => {
    const path = join(dir(), 'report.json');
    const script = `
import { writeFileSync, rmSync } from 'node:fs';
import { publishReport, waitForReport } from ${JSON.stringify(bundle)};
const path = ${JSON.stringify(path)};
const expected = ${JSON.stringify(EXPECTED)};
const outcome = (p) => p.then(() => 'accepted', (e) => e.code ?? String(e));
const seen = [];
seen.push(await outcome(waitForReport(path, expected, { timeoutMs: 30 })));
const waiting = waitForReport(path, expected, { timeoutMs: 30000 });
await publishReport(path, ${JSON.stringify(roundReport())});
seen.push(await outcome(waiting));
seen.push(await outcome(waitForReport(path, expected, { timeoutMs: 30000, watch: false })));
writeFileSync(path, '{');
seen.push(await outcome(waitForReport(path, expected, { timeoutMs: 30000 })));
rmSync(path);
const controller = new AbortController();
const aborting = waitForReport(path, expected, { timeoutMs: 30000, signal: controller.signal });
setTimeout(() => controller.abort(new Error('driver shutting down')), 20);
seen.push(await outcome(aborting));
seen.push(await outcome(waitForReport(path, expected, { timeoutMs: 0 })));
// a closed watch releases its handle in the loop's close phase, after the next check phase
await new Promise((resolve) => setImmediate(resolve));
await new Promise((resolve) => setImmediate(resolve));
const left = process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap' || r === 'Timeout');
console.log(JSON.stringify({ seen, left }));
`;
    const child = await start('exits.mjs', script);
    expect(await child.exited).toBe(0);
    expect(JSON.parse(child.stdout())).toEqual({
      seen: ['timeout', 'accepted', 'accepted', 'malformed', 'aborted', 'invalid-budget'],
      left: [],
    });
  }, 20_000);
});

describe('waitForReport: abort', () => {
  const dir = useTempDir();

  it('rejects with aborted when the signal aborts mid-wait, naming the reason', async () => {
    const controller = new AbortController();
    const path = join(dir(), 'report.json');
    const waiting = waitForReport(path, EXPECTED, { timeoutMs: 30_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('driver shutting down')), 10);
    const error = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isClearanceError(error)) throw new Error(`expected aborted, got ${String(error)}`);
    expect(error.code).toBe('aborted');
    expect(error.message).toContain('driver shutting down');
    expect(error.message).toContain(path);
    expect(error.details).toMatchObject({ path, expected: EXPECTED, reason: 'driver shutting down' });
  });

  it('rejects at once with aborted when the signal already aborted, even with the report in place', async () => {
    const path = join(dir(), 'report.json');
    await publishReport(path, roundReport());
    const error = await waitForReport(path, EXPECTED, { signal: AbortSignal.abort() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isClearanceError(error) && error.code).toBe('aborted');
  });
});
