import { readFileSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/events/sha256.js';
import { type DomainEvent, isClearanceError, roundRecorded } from '../../src/index.js';
import { STATE_SHAPE_VERSION } from '../../src/projections/state.js';
import {
  decodeCheckpoint,
  decodeState,
  encodeCheckpoint,
  encodeState,
  forgetCheckpoint,
  HEADER_BYTES,
} from '../../src/store/checkpoint.js';
import {
  append,
  appendBatch,
  fileStore,
  foldRunFromStart,
  readHead,
  readRun,
} from '../../src/store/index.js';
import { foldRunFile, readRunSummaryFile } from '../../src/store/read.js';
import { cli } from '../support/cli.js';
import { by, bytesOf, round2Fixing, runAwaitingRound2, stateFromCheckpoint } from '../support/store.js';
import { tempDir } from '../support/tmp.js';

const capture = (inputSha: string): DomainEvent => ({
  type: 'revision.captured',
  data: { round: 2, inputSha, touchedFiles: [], renames: [] },
});

describe('the fold checkpoint beside a log', () => {
  it('records the folded state at the log size and last hash, and a reader in a fresh state uses it', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const checkpoint = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    const full = await foldRunFromStart(fileStore(dir), 'run-1');
    expect(checkpoint?.end).toMatchObject({
      seq: 4,
      size: (await bytesOf(paths.log)).length,
      hash: full.lastHash,
    });
    expect(checkpoint?.at.seq).toBeLessThanOrEqual(4);
    forgetCheckpoint(paths.log);
    const status = foldRunFile(dir, 'run-1');
    expect(status.fromCheckpoint).toBe(true);
    expect(status.state).toEqual(full.state);
    expect(status.lastSeq).toBe(4);
    expect(readRunSummaryFile(dir, 'run-1')).toEqual({
      runId: 'run-1',
      status: 'open',
      round: 1,
      maxRounds: full.state.run?.policy.maxRounds,
      lastSeq: 4,
      issue: null,
      tornTail: null,
      fromCheckpoint: true,
    });
  });

  it('round-trips a converged state with findings and their history', async () => {
    const dir = await tempDir();
    await runAwaitingRound2(dir);
    const result = await append(dir, 'run-1', [roundRecorded(round2Fixing())], { by });
    expect(result.folded.state.status).toBe('converged');
    const c = {
      file: { ino: 1, ctimeMs: 2.5 },
      size: 9,
      seq: 5,
      hash: 'a'.repeat(64),
      lineStart: 3,
      events: 5,
      refused: 0,
    };
    expect(decodeCheckpoint(encodeCheckpoint({ ...c, state: result.folded.state }))).toMatchObject({
      end: c,
      at: { ...c, state: result.folded.state },
    });
  });

  it('is ignored, never trusted, when it does not match the log or was written for another state shape', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const stored = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    if (stored === null) throw new Error('no checkpoint');
    const real = { ...stored.end, state: stateFromCheckpoint(dir) };
    const lie = { ...real.state, status: 'converged' as const };
    // as a fresh process sees it: no checkpoint in memory, only the one on disk
    forgetCheckpoint(paths.log);
    // the log was written since (another change time)
    await writeFile(
      paths.cache,
      encodeCheckpoint({ ...real, file: { ...real.file, ctimeMs: real.file.ctimeMs - 1 }, state: lie }),
    );
    expect(foldRunFile(dir, 'run-1')).toMatchObject({
      fromCheckpoint: false,
      state: { status: 'open' },
    });
    // another size
    await writeFile(paths.cache, encodeCheckpoint({ ...real, size: real.size - 1, state: lie }));
    expect(foldRunFile(dir, 'run-1')).toMatchObject({
      fromCheckpoint: false,
      state: { status: 'open' },
    });
    // another state shape version or format version (with the header's own hash made right), a
    // torn state line, a changed state, a changed header
    const text = encodeCheckpoint({ ...real, state: lie });
    const rehashed = (edit: (header: string) => string) => {
      const [line, ...rest] = text.split('\n');
      const header = edit((line as string).trimEnd().slice(65));
      return [`${sha256Hex(header)} ${header}`.padEnd(HEADER_BYTES - 1), ...rest].join('\n');
    };
    expect(rehashed((h) => h)).toBe(text);
    const badHeaders = [
      rehashed((h) => h.replace('"shape":', '"shape":9')),
      rehashed((h) => h.replace('"v":2', '"v":1')),
      // a line said to start past the end of the log, or of the state's position: never read there
      rehashed((h) => h.replace(/"lineStart":\d+/, '"lineStart":99999999')),
      rehashed((h) => h.replace(/("state":\{[^}]*"lineStart":)\d+/, '$199999999')),
      text.replace('"size":', '"size":1'),
    ];
    // the state line alone torn or changed: the header (whose own hash holds) still serves a
    // listing, but the state is never used
    const badStates = [text.slice(0, -10), text.replace('"converged"', '"convergeD"')];
    for (const bad of [...badHeaders, ...badStates]) {
      await writeFile(paths.cache, bad);
      expect(foldRunFile(dir, 'run-1')).toMatchObject({
        fromCheckpoint: false,
        state: { status: 'open' },
      });
    }
    for (const bad of badHeaders) {
      await writeFile(paths.cache, bad);
      expect(readRunSummaryFile(dir, 'run-1')).toMatchObject({ fromCheckpoint: false, status: 'open' });
    }
    // and an appender folds the log itself, then keeps a true checkpoint again
    await append(dir, 'run-1', [capture('again')], { by });
    expect(stateFromCheckpoint(dir).capture?.inputSha).toBe('again');
  });

  it('keeps its state as both stores do (encodeState), and ignores a state that is JSON but no object', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const stored = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    if (stored === null) throw new Error('no checkpoint');
    const real = { ...stored.end, state: stateFromCheckpoint(dir) };
    // the file's format is the shared encoding's: the state line is its JSON, the header names its hash
    const [header, stateLine] = encodeCheckpoint(real).split('\n');
    const { json, sha } = encodeState(real.state);
    expect(stateLine).toBe(json);
    expect(JSON.parse((header as string).trimEnd().slice(65)).state.sha).toBe(sha);
    expect(decodeState(json, sha)).toEqual(real.state);
    forgetCheckpoint(paths.log);
    for (const notAState of ['null', '[]', '"open"', '7']) {
      expect(decodeState(notAState, sha256Hex(notAState))).toBeNull();
      // the header rewritten to vouch for it, its own hash made right: still never used
      const text = encodeCheckpoint(real).replace(`${stateLine}\n`, `${notAState}\n`);
      const [line, ...rest] = text.split('\n');
      const edited = (line as string).trimEnd().slice(65).replace(sha, sha256Hex(notAState));
      await writeFile(paths.cache, [`${sha256Hex(edited)} ${edited}`, ...rest].join('\n'));
      expect(foldRunFile(dir, 'run-1')).toMatchObject({ fromCheckpoint: false, state: real.state });
    }
  });

  it('is never written by a reader, in the library or the CLI', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    await rm(paths.cache);
    await readRun(fileStore(dir), 'run-1');
    await foldRunFromStart(fileStore(dir), 'run-1');
    foldRunFile(dir, 'run-1');
    readRunSummaryFile(dir, 'run-1');
    for (const args of [['status', 'run-1'], ['status'], ['verify'], ['verify', 'run-1']]) {
      expect((await cli(['--dir', dir, ...args])).code).toBe(0);
    }
    expect(await readdir(paths.runs)).not.toContain('run-1.fold');
  });
});

describe('a log with no complete line', () => {
  it('an append to an emptied log is refused by the rules (the run is not opened), not by a crash', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    await writeFile(paths.log, '');
    await rm(paths.head);
    const error = await append(dir, 'run-1', [capture('x')], { by }).catch((e: unknown) => e);
    expect(isClearanceError(error) && error.code).toBe('not-opened');
    expect(await bytesOf(paths.log)).toEqual(Buffer.alloc(0));
  });
});

describe('appendBatch: one hold of the lock, each step fsynced before it counts', () => {
  it('builds each step from the state after the steps before it', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const seen: number[] = [];
    const results = await appendBatch(
      dir,
      'run-1',
      [
        [capture('one')],
        { kind: 'fail-round', runId: 'run-1', reason: 'timeout', detail: 'first' },
        { kind: 'fail-round', runId: 'run-1', reason: 'timeout', detail: 'second' },
      ],
      { by, onAppended: (r) => seen.push(r.appended[0]?.seq ?? 0) },
    );
    expect(results.map((r) => r.appended.map((e) => e.seq))).toEqual([[5], [6], [7]]);
    expect(seen).toEqual([5, 6, 7]);
    // each command was decided against the state the steps before it left: the input captured in step 1
    expect(results.slice(1).map((r) => r.appended[0]?.data)).toMatchObject([
      { round: 2, inputSha: 'one', detail: 'first' },
      { round: 2, inputSha: 'one', detail: 'second' },
    ]);
    expect(results[2]?.folded.state.failedAttempts).toBe(2);
    expect((await foldRunFromStart(fileStore(dir), 'run-1')).lastSeq).toBe(7);
    expect(decodeCheckpoint(await readFile(paths.cache, 'utf8'))?.end.seq).toBe(7);
    // the anchor is rewritten once, after the last step's fsync, for the last line
    expect(readHead(paths.head).head?.seq).toBe(7);
  });

  it('a refused step writes nothing of itself; the steps before it stay appended', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    let afterFirst: Buffer | null = null;
    const error = await appendBatch(dir, 'run-1', [[roundRecorded(round2Fixing())], [capture('too-late')]], {
      by,
      onAppended: () => {
        afterFirst = readFileSync(paths.log);
      },
    }).catch((e: unknown) => e);
    expect(isClearanceError(error) && error.code).toBe('run-final');
    expect(afterFirst).not.toBeNull();
    expect(await bytesOf(paths.log)).toEqual(afterFirst);
    expect((await foldRunFromStart(fileStore(dir), 'run-1')).state.status).toBe('converged');
    // the step that was synced is anchored, though the one after it was refused
    expect(readHead(paths.head).head?.seq).toBe(5);
  });
});

describe('the state line is written again only once the lines after it reach a quarter of its size', () => {
  const recapture = (i: number): DomainEvent => capture(`again-${i}`);

  it('until then an append rewrites the header alone, and a fresh reader folds the lines after the state', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const seen = { lagging: 0, rewritten: 0 };
    let before = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    for (let i = 0; i < 30; i += 1) {
      await append(dir, 'run-1', [recapture(i)], { by });
      const text = await readFile(paths.cache, 'utf8');
      const now = decodeCheckpoint(text);
      if (now === null || before === null) throw new Error('no checkpoint');
      expect(now.end.seq).toBe(5 + i);
      expect(now.end.size).toBe((await bytesOf(paths.log)).length);
      if (now.at.seq < now.end.seq) {
        seen.lagging += 1;
        // the state line is the one written before, and it is not yet due
        expect({ ...now.at, file: null }).toEqual({ ...before.at, file: null });
        expect(now.stored).toEqual(before.stored);
        expect((now.end.size - now.at.size) * 4).toBeLessThan(now.stored.bytes);
      } else seen.rewritten += 1;
      expect(stateFromCheckpoint(dir)).toEqual((await foldRunFromStart(fileStore(dir), 'run-1')).state);
      before = now;
    }
    expect(seen.lagging).toBeGreaterThan(0);
    expect(seen.rewritten).toBeGreaterThan(0);
  });

  it('a header this process writes over a state line someone else replaced is never trusted', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const stored = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    if (stored === null) throw new Error('no checkpoint');
    // another state line put in place (its own header hash and state hash right), the log unwritten
    const lie = { ...stored.at, state: { ...stored.at.state, round: 7 } };
    await writeFile(paths.cache, encodeCheckpoint(lie));
    // this process still knows the line it wrote: the next append (not yet due) rewrites the header alone
    await append(dir, 'run-1', [recapture(0)], { by });
    const after = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    expect(after).toBeNull();
    forgetCheckpoint(paths.log);
    const read = foldRunFile(dir, 'run-1');
    expect(read.fromCheckpoint).toBe(false);
    expect(read.state).toEqual((await foldRunFromStart(fileStore(dir), 'run-1')).state);
  });
});

describe('a checkpoint of format 1 (before issue 32)', () => {
  it('is ignored, the log folded from the start, and the next append replaces it with format 2', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const stored = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    if (stored === null) throw new Error('no checkpoint');
    const state = stateFromCheckpoint(dir);
    const end = stored.end;
    // format 1 as it was written: the header's hash and JSON, unpadded, then the state, matching the log
    const { json, sha } = encodeState({ ...state, status: 'converged' });
    const header = JSON.stringify({
      format: 'clearance.fold-cache',
      v: 1,
      shape: STATE_SHAPE_VERSION,
      ino: end.file.ino,
      ctimeMs: end.file.ctimeMs,
      size: end.size,
      seq: end.seq,
      hash: end.hash,
      lineStart: end.lineStart,
      events: end.events,
      refused: end.refused,
      summary: { status: 'converged', round: state.round, maxRounds: null },
      stateSha: sha,
    });
    await writeFile(paths.cache, `${sha256Hex(header)} ${header}\n${json}\n`);
    forgetCheckpoint(paths.log);
    expect(foldRunFile(dir, 'run-1')).toMatchObject({ fromCheckpoint: false, state: { status: 'open' } });
    expect(readRunSummaryFile(dir, 'run-1')).toMatchObject({ fromCheckpoint: false, status: 'open' });
    await append(dir, 'run-1', [capture('after')], { by });
    const replaced = decodeCheckpoint(await readFile(paths.cache, 'utf8'));
    expect(replaced?.end.seq).toBe(5);
    expect(stateFromCheckpoint(dir)).toEqual((await foldRunFromStart(fileStore(dir), 'run-1')).state);
  });
});
