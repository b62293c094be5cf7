import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DomainEvent } from '../../src/index.js';
import { findingOf } from '../../src/index.js';

/**
 * The documents' TypeScript examples, run as they are written (importing the sources instead of the
 * package): the README's reference moved to docs/, the embedding examples to docs/embedding.md and
 * the round report to docs/reports.md.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const embedding = readFileSync(path.join(here, '../../docs/embedding.md'), 'utf8');
const reports = readFileSync(path.join(here, '../../docs/reports.md'), 'utf8');
const written: string[] = [];

const exampleAfter = (heading: string): string => {
  const at = embedding.indexOf(heading);
  if (at === -1) throw new Error(`docs/embedding.md has no ${heading}`);
  const section = embedding.slice(at);
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined) throw new Error(`no ts example after ${heading}`);
  // `@clearance/fold` and its entries resolve to src/ here (vitest.config.ts); against the package
  // installed alone, test/package/fold-install.test.ts runs them too
  return match[1];
};

/** The example as a file beside this test: its name, to import. */
const write = (name: string, code: string): string => {
  const file = path.join(here, `.${name}.example.ts`);
  writeFileSync(file, code);
  written.push(file);
  return `${name}.example.ts`;
};

const run = async (name: string, code: string) => {
  await import(path.join(here, `.${write(name, code)}`));
};

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe("the documents' TypeScript examples run as written", () => {
  it('the decider: a command decided and folded', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await run('embedding', exampleAfter('## The decider'));
    expect(error).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('open');
    log.mockRestore();
    error.mockRestore();
  });

  it('untrusted input: a report naming a path outside the repository is refused at the door', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await run('untrusted', exampleAfter('### Untrusted input'));
    expect(log).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith('invalid-path', expect.stringContaining('../etc/passwd'));
    log.mockRestore();
    error.mockRestore();
  });

  it("a run's log in a browser: the program folds an exported log to its status", async () => {
    const { statusOfLog } = (await import(
      path.join(here, `.${write('status-of-log', exampleAfter("## A run's log in a browser"))}`)
    )) as { statusOfLog: (log: string) => { status: string; round: number } };
    const log = readFileSync(path.join(here, '../fixtures/v2/v2-staged-converges.jsonl'), 'utf8');
    expect(statusOfLog(log)).toMatchObject({ status: 'converged' });
    // a line changed, or out of place: the chain says where
    expect(() => statusOfLog(log.replace('"seq":2', '"seq":3'))).toThrow(/^line 2 does not follow/);
    const [first, , ...rest] = log.split('\n');
    expect(() => statusOfLog([first, ...rest].join('\n'))).toThrow(/^line 2 does not follow/);
  });

  it('the round report example decides a finding by its 12-character id, and the event keeps the full id', async () => {
    const { findingId, PRESETS } = await import('../../src/index.js');
    const { decideUntrusted, fold } = await import('../support/decider.js');
    const at = reports.indexOf('A round report is JSON');
    if (at === -1) throw new Error('docs/reports.md has no "A round report is JSON"');
    const json = /```json\n([\s\S]*?)```/.exec(reports.slice(at))?.[1];
    if (json === undefined) throw new Error('no json example after "A round report is JSON"');
    const example = JSON.parse(json) as { decisions: Array<{ id: string }>; inputSha: string };
    expect(example.decisions[0]?.id).toHaveLength(12);
    // round 1 found the handle that round 2's decision closes
    const earlier = {
      file: 'src/service.js',
      line: 10,
      category: 'correctness',
      summary: 'Missing close',
      severity: 'major',
      confirmed: true,
      evidence: 'the handle leaks when the request is aborted',
    };
    const round1 = { runId: 'pr-236', round: 1, inputSha: 'r1', completed: true, candidates: [earlier] };
    const events: DomainEvent[] = [
      {
        type: 'run.opened',
        data: { runId: 'pr-236', policy: PRESETS.default, subject: {}, consent: { by: 'ci' } },
      },
      { type: 'revision.captured', data: { round: 1, inputSha: 'r1', touchedFiles: [], renames: [] } },
    ];
    const after1 = decideUntrusted(fold(events).state, round1);
    if (after1._tag === 'Left') throw new Error(after1.left.message);
    const capture = { round: 2, inputSha: example.inputSha, touchedFiles: ['src/service.js'], renames: [] };
    const verdict = decideUntrusted(after1.right.state, example, { capture });
    if (verdict._tag === 'Left') throw new Error(`${verdict.left.code}: ${verdict.left.message}`);
    const recorded = verdict.right.events.at(-1);
    expect(recorded?.type === 'round.recorded' && recorded.data.report.decisions[0]?.id).toBe(
      findingId(earlier),
    );
    expect(findingId(earlier).startsWith(example.decisions[0]?.id ?? '-')).toBe(true);
    expect(findingOf(verdict.right.state, findingId(earlier))?.status).toBe('fixed');
  });

  it("docs/completion.md's driver example waits for a published report and returns it", async () => {
    const { publishReport } = await import('../../src/index.js');
    const completion = readFileSync(path.join(here, '../../docs/completion.md'), 'utf8');
    const code = /## For drivers[\s\S]*?```ts\n([\s\S]*?)```/.exec(completion)?.[1];
    if (code === undefined) throw new Error('docs/completion.md has no ts example under For drivers');
    const inbox = path.join(mkdtempSync(path.join(tmpdir(), 'clearance-completion-')), 'round-2.json');
    expect(code).toContain("'.clearance/inbox/round-2.json'");
    const report = {
      runId: 'pr-236',
      round: 2,
      inputSha: 'c577f1fed4c528141b954da67b2b12bd76a3cb35',
      completed: true,
      candidates: [],
    };
    await publishReport(inbox, report);
    const waited = { value: undefined as unknown };
    (globalThis as { completionExample?: typeof waited }).completionExample = waited;
    await run(
      'completion',
      `${code
        .replace("from 'clearance'", `from '${path.join(here, '../../src/index.js')}'`)
        .replace("'.clearance/inbox/round-2.json'", JSON.stringify(inbox))}
(globalThis as unknown as { completionExample: { value: unknown } }).completionExample.value = { report, bytes, waitedMs };
`,
    );
    expect(waited.value).toMatchObject({ report: { ...report, decisions: [] }, bytes: expect.any(Number) });
  });

  it('property testing with @clearance/fold/testing', async () => {
    await run('testing', exampleAfter('## Property testing with `@clearance/fold/testing`'));
  });

  it('a specification of the rules with clearance/testing: the refusal it asserts is what it saw', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await run('specification', exampleAfter('## Specifications of the rules'));
      expect(log).toHaveBeenCalledWith(['wrong-input']);
    } finally {
      log.mockRestore();
    }
  });
});
