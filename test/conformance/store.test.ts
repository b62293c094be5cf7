import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Command,
  checkObjects,
  exportLog,
  findingId,
  foldRunFromStart,
  importLog,
  isClearanceError,
  openRun,
  operations,
  PRESETS,
  type RoundReport,
  readRun,
  roundRecorded,
} from '../../src/index.js';
import type { Store } from '../../src/store/store.js';
import { candidate, report, sha } from '../support/builders.js';
import { freshStore, STORE_KINDS, type StoreKind } from '../support/stores.js';

const by = 'tester';
const now = () => new Date('2026-11-30T07:00:00.000Z');

const codeOf = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (e) {
    if (isClearanceError(e)) return e.code;
    throw e;
  }
  throw new Error('expected a ClearanceError');
};

const opened = (runId: string) => ({ runId, policy: PRESETS.default, subject: {}, consent: { by } });
const capture = (round: number, input: string, touched: string[] = []) => ({
  round,
  inputSha: sha(input),
  touchedFiles: touched,
  renames: [],
});

/** The bytes a run's log would have in a file: what export prints and verify checks. */
const logBytes = (store: Store, runId: string): Promise<string> =>
  exportLog(store, runId).then((b) => b.toString('utf8'));

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
const fresh = async (kind: StoreKind) => {
  const made = await freshStore(kind);
  stores.push(made.store);
  return made;
};

describe.each(STORE_KINDS)('the %s store', (kind) => {
  it('opens a run once and appends chained events in order', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    expect(await codeOf(openRun(store, opened('r1'), { by, now }))).toBe('run-exists');
    const result = await store.append(
      'r1',
      [roundRecorded(report(1, 'A', { runId: 'r1', candidates: [candidate()] }))],
      {
        by,
        now,
      },
    );
    expect(result.appended.map((e) => e.seq)).toEqual([3]);
    const read = await readRun(store, 'r1');
    expect(read.issue).toBeNull();
    expect(read.lastSeq).toBe(3);
    expect(read.folded.state.round).toBe(1);
    expect(await store.listRuns()).toEqual(['r1']);
  });

  it('refuses an append whose expected seq is stale, writing nothing', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    const before = await logBytes(store, 'r1');
    const stale = store.append('r1', [roundRecorded(report(1, 'A', { runId: 'r1' }))], {
      by,
      now,
      expectedSeq: 1,
    });
    expect(await codeOf(stale)).toBe('seq-mismatch');
    expect(await logBytes(store, 'r1')).toBe(before);
  });

  it('refuses a report the rules reject, writing nothing', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    const before = await logBytes(store, 'r1');
    const wrongRound = store.append('r1', [roundRecorded(report(2, 'A', { runId: 'r1' }))], { by, now });
    expect(await codeOf(wrongRound)).toBe('wrong-round');
    expect(await logBytes(store, 'r1')).toBe(before);
  });

  it('answers a retried round report "already recorded", appending nothing; another report for that round is refused', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    const round1 = report(1, 'A', { runId: 'r1', candidates: [candidate()] });
    const offer = (r: RoundReport): Command => ({ kind: 'record', report: r });
    const first = await store.append('r1', offer(round1), { by, now });
    expect(first.alreadyRecorded).toBe(false);
    const before = await logBytes(store, 'r1');
    const retried = await store.append('r1', offer(round1), { by, now });
    expect(retried.alreadyRecorded).toBe(true);
    expect(retried.appended).toEqual([]);
    expect(await logBytes(store, 'r1')).toBe(before);
    const other = store.append('r1', offer({ ...round1, candidates: [candidate({ summary: 'Another' })] }), {
      by,
      now,
    });
    expect(await codeOf(other)).toBe('wrong-round');
    expect(await logBytes(store, 'r1')).toBe(before);
  });

  it('answers a reviewer\'s retried contribution "already recorded"; another reviewer with the same report is new', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    const mine = report(1, 'A', { runId: 'r1', candidates: [candidate()] });
    const as = (reviewer: string): Command => ({ kind: 'contribute', report: mine, reviewer });
    expect((await store.append('r1', as('security'), { by, now })).alreadyRecorded).toBe(false);
    const before = await logBytes(store, 'r1');
    expect((await store.append('r1', as('security'), { by, now })).alreadyRecorded).toBe(true);
    expect(await logBytes(store, 'r1')).toBe(before);
    const other = await store.append('r1', as('style'), { by, now });
    expect([other.alreadyRecorded, other.appended.length]).toEqual([false, 1]);
  });

  it('answers a retried capture "already recorded" (the next round keeps its stages), a new input appends', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    const before = await logBytes(store, 'r1');
    const again = await store.append('r1', [{ type: 'revision.captured', data: capture(1, 'A') }], {
      by,
      now,
    });
    expect(again.alreadyRecorded).toBe(true);
    expect(await logBytes(store, 'r1')).toBe(before);
    const moved = await store.append('r1', [{ type: 'revision.captured', data: capture(1, 'B') }], {
      by,
      now,
    });
    expect(moved.alreadyRecorded).toBe(false);
    expect(moved.appended).toHaveLength(1);
  });

  it('records a re-run reproduction with its output archived; the same outcome again is already recorded, the other refused', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    const repro = candidate({ reproduction: { command: 'npm test', expected: 'fails' } });
    const decided: Command = { kind: 'record', report: report(1, 'A', { runId: 'r1', candidates: [repro] }) };
    await store.append('r1', decided, { by, now });
    await store.append('r1', [{ type: 'revision.captured', data: capture(2, 'B', [repro.file]) }], {
      by,
      now,
    });
    const output = Buffer.from('FAIL: 1 socket left open');
    const id = findingId(repro).slice(0, 10);
    const ctx = { store, by };
    const first = await operations.reproduce(ctx, {
      runId: 'r1',
      finding: id,
      outcome: 'still-fails',
      output,
    });
    expect(first).toMatchObject({ round: 2, inputSha: sha('B'), findingId: findingId(repro), seq: 5 });
    const event = (await readRun(store, 'r1')).events[4];
    if (event?.type !== 'reproduction.recorded') throw new Error('no reproduction.recorded appended');
    expect(event.data.outputSha).toBe(first.outputSha);
    expect((await store.readOutput('r1', event.data.outputSha as string)).toString()).toBe(output.toString());
    expect((await foldRunFromStart(store, 'r1')).outputs).toContain(event.data.outputSha);
    const before = await logBytes(store, 'r1');
    const again = await operations.reproduce(ctx, { runId: 'r1', finding: id, outcome: 'still-fails' });
    expect(again.alreadyRecorded).toBe(true);
    const other = operations.reproduce(ctx, { runId: 'r1', finding: id, outcome: 'no-longer-fails' });
    expect(await codeOf(other)).toBe('duplicate-reproduction');
    expect(await logBytes(store, 'r1')).toBe(before);
  });

  it('records CI checks: a report waits for them, a failed required check ends the round, its retry is already recorded', async () => {
    const { store } = await fresh(kind);
    const policy = { ...PRESETS.default, checks: { required: ['test'], optional: [], expectedSkips: [] } };
    await openRun(store, { ...opened('r1'), policy }, { by, capture: capture(1, 'A'), now });
    const early = store.append(
      'r1',
      { kind: 'record', report: report(1, 'A', { runId: 'r1' }) },
      { by, now },
    );
    expect(await codeOf(early)).toBe('checks-not-recorded');
    const failing = [{ name: 'test', state: 'failed' as const, url: 'https://ci.example/1' }];
    const ctx = { store, by, now };
    const ended = await operations.checks(ctx, { runId: 'r1', checks: failing, source: '--check' });
    expect([ended.round, ended.result, ended.status]).toEqual([1, 'ci_failed', 'open']);
    expect((await foldRunFromStart(store, 'r1')).state.checks).toEqual({
      round: 1,
      inputSha: sha('A'),
      checks: failing,
    });
    const before = await logBytes(store, 'r1');
    const retry = await operations.checks(ctx, { runId: 'r1', checks: failing, source: '--check' });
    expect([retry.alreadyRecorded, retry.seq]).toEqual([true, null]);
    const hostile = operations.checks(ctx, {
      runId: 'r1',
      checks: [{ name: 'te\u001bst', state: 'passed' }],
      source: '--check',
    });
    expect(await codeOf(hostile)).toBe('invalid-text');
    expect(await logBytes(store, 'r1')).toBe(before);
  });

  it('says a run is missing', async () => {
    const { store } = await fresh(kind);
    expect(await codeOf(readRun(store, 'nope'))).toBe('run-missing');
    expect(await codeOf(store.append('nope', [], { by }))).toBe('run-missing');
  });

  it('keeps stage outputs content-addressed and finds a missing one', async () => {
    const { store } = await fresh(kind);
    await openRun(store, opened('r1'), { by, now });
    const sha1 = await store.archiveOutput('r1', Buffer.from('npm test: 3 passed'));
    expect(await store.archiveOutput('r1', Buffer.from('npm test: 3 passed'))).toBe(sha1);
    expect((await store.readOutput('r1', sha1)).toString()).toBe('npm test: 3 passed');
    expect(await checkObjects(store, 'r1', [sha1, 'f'.repeat(64)])).toEqual([
      { sha: 'f'.repeat(64), problem: 'missing' },
    ]);
    // a refused event may name anything: a name no archive can hold is missing, never read as a path
    expect(await checkObjects(store, 'r1', ['../../r1.jsonl'])).toEqual([
      { sha: '../../r1.jsonl', problem: 'missing' },
    ]);
  });

  it('serialises concurrent appenders: none lost, none duplicated', async () => {
    const { location } = await fresh(kind);
    const writers = await Promise.all(Array.from({ length: 8 }, () => freshHandle(kind, location)));
    await openRun(writers[0] as Store, opened('r1'), { by, now });
    // every writer appends stage events for round... use captures: always legal, latest wins
    await Promise.all(
      writers.map(async (w, i) => {
        for (let n = 0; n < 5; n++)
          await w.append('r1', [{ type: 'revision.captured', data: capture(1, `${i}-${n}`) }], { by });
      }),
    );
    const [first] = writers;
    if (first === undefined) throw new Error('no writer');
    const read = await readRun(first, 'r1');
    expect(read.issue).toBeNull();
    expect(read.lastSeq).toBe(41);
    const inputs = read.events
      .filter((e) => e.type === 'revision.captured')
      .map((e) => (e.data as { inputSha: string }).inputSha);
    expect(new Set(inputs).size).toBe(40);
  });
});

const freshHandle = async (kind: StoreKind, location: string): Promise<Store> => {
  const { fileStore } = await import('../../src/store/store.js');
  const { openPostgresStore } = await import('../../src/store/postgres/index.js');
  const store = kind === 'file' ? fileStore(location) : await openPostgresStore(location);
  stores.push(store);
  return store;
};

describe('the postgres store, beyond the shared contract', () => {
  it('finds a changed row exactly as the file store finds a changed line, and refuses appends', async () => {
    const { store, location } = await fresh('postgres');
    await openRun(store, opened('r1'), { by, capture: capture(1, 'A'), now });
    const client = new pg.Client({ connectionString: location });
    await client.connect();
    try {
      await client.query(
        "UPDATE clearance.events SET line = replace(line, 'tester', 'mallory') WHERE run_id = 'r1' AND seq = 1",
      );
    } finally {
      await client.end();
    }
    const read = await readRun(store, 'r1');
    expect(read.issue?.line).toBe(2);
    expect(await codeOf(store.append('r1', [roundRecorded(report(1, 'A', { runId: 'r1' }))], { by }))).toBe(
      'integrity',
    );
  });
});

/** A run with a round recorded and a capture, every event stamped alike, written into `store`. */
const sameRun = async (store: Store, runId: string) => {
  await openRun(store, opened(runId), { by, capture: capture(1, 'A'), now });
  await store.append(runId, [roundRecorded(report(1, 'A', { runId, candidates: [candidate()] }))], {
    by,
    now,
  });
  await store.append(runId, [{ type: 'revision.captured', data: capture(2, 'B', ['src/service.js']) }], {
    by,
    now,
  });
};

describe('moving runs between stores', () => {
  it('holds the same lines byte for byte in both stores', async () => {
    const file = (await fresh('file')).store;
    const postgres = (await fresh('postgres')).store;
    await sameRun(file, 'r1');
    await sameRun(postgres, 'r1');
    expect((await exportLog(postgres, 'r1')).equals(await exportLog(file, 'r1'))).toBe(true);
  });

  it('moves a run to PostgreSQL and back, byte-identical, and it still folds and appends', async () => {
    const file = (await fresh('file')).store;
    const postgres = (await fresh('postgres')).store;
    const back = (await fresh('file')).store;
    await sameRun(file, 'r1');
    const original = await exportLog(file, 'r1');
    expect(await importLog(postgres, 'r1', original)).toBe(4);
    expect(await importLog(back, 'r1', await exportLog(postgres, 'r1'))).toBe(4);
    expect((await exportLog(back, 'r1')).equals(original)).toBe(true);
    expect((await readRun(back, 'r1')).folded.state).toEqual((await readRun(file, 'r1')).folded.state);
    const more = await postgres
      .append('r1', [roundRecorded(report(2, 'B', { runId: 'r1', decisions: [] }))], { by, now })
      .catch((e) => e);
    expect(isClearanceError(more) ? more.code : 'appended').toBe('missing-decision');
  });

  it.each(STORE_KINDS)(
    'refuses damaged, cut, foreign or refused input into the %s store, writing nothing',
    async (kind) => {
      const source = (await fresh('file')).store;
      await sameRun(source, 'r1');
      const good = await exportLog(source, 'r1');
      const { store } = await fresh(kind);
      const flipped = Buffer.from(good);
      flipped[40] = flipped[40] === 0x41 ? 0x42 : 0x41;
      const cases: Array<[string, Buffer]> = [
        ['r1', flipped],
        ['r1', good.subarray(0, good.length - 1)],
        ['r1', Buffer.from('')],
        ['other', good],
        ['r1', Buffer.from(good.toString('utf8').split('\n').slice(1).join('\n'))],
      ];
      for (const [runId, bytes] of cases) {
        expect(await codeOf(importLog(store, runId, bytes))).toBe('integrity');
        expect(await store.listRuns()).toEqual([]);
      }
      await importLog(store, 'r1', good);
      expect(await codeOf(importLog(store, 'r1', good))).toBe('run-exists');
    },
  );
});

describe('reads on the postgres store', () => {
  it('run in a read-only session: reading never writes, creates or migrates anything', async () => {
    const { store, location } = await fresh('postgres');
    await sameRun(store, 'r1');
    const readOnly = `${location}${location.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c default_transaction_read_only=on')}`;
    const { openPostgresStore } = await import('../../src/store/postgres/index.js');
    const reader = await openPostgresStore(readOnly);
    stores.push(reader);
    expect((await readRun(reader, 'r1')).lastSeq).toBe(4);
    expect((await reader.foldRun('r1')).state.round).toBe(1);
    expect(await reader.listRuns()).toEqual(['r1']);
    expect((await exportLog(reader, 'r1')).equals(await exportLog(store, 'r1'))).toBe(true);
    expect(
      await codeOf(reader.append('r1', [{ type: 'revision.captured', data: capture(2, 'C') }], { by })),
    ).toBe('read-only');
    expect(await exportLog(reader, 'r1')).toEqual(await exportLog(store, 'r1'));
  });
});
