import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createDecider,
  encodeEvents,
  operations,
  roundRecorded,
  sha256Hex,
  ZERO_HASH,
} from '../../src/index.js';
import { fileStore, foldRunFromStart } from '../../src/store/index.js';
import { encodeHead } from '../../src/store/log-format.js';
import { candidate, captured, opened, report } from '../support/builders.js';
import { tempDir } from '../support/tmp.js';

/**
 * What a read derives again and what it takes from the chain (docs/storage.md, "What each read
 * checks"): a carried report's reportSha is a function of its line alone, so a read that checked
 * the line against the chain takes it as recorded; `verify` derives it again and refuses a
 * reportSha that is not its report's.
 */
const round1 = roundRecorded(report(1, 'A', { candidates: [candidate()] }));
const forged = { ...round1, data: { ...round1.data, reportSha: sha256Hex('not this report') } };

describe('a carried reportSha: derived by verify and every offer, taken from the chained line by a read', () => {
  it('the decider of a read takes it as recorded; the default decider derives it', () => {
    const events = [opened(), captured(1, 'A')];
    const foldWith = (d: ReturnType<typeof createDecider>) => {
      let state = d.initialState;
      const refused: string[] = [];
      for (const e of [...events, forged]) {
        const next = d.evolve(state, e);
        if (next._tag === 'Right') state = next.right;
        else refused.push(next.left.code);
      }
      return { state, refused };
    };
    expect(foldWith(createDecider()).refused).toEqual(['inconsistent-event']);
    const chained = foldWith(createDecider({ reportSha: 'as-chained' }));
    expect(chained.refused).toEqual([]);
    expect(chained.state.round).toBe(1);
  });

  it('a log rechained around a forged reportSha: status takes it, verify refuses the line and names it', async () => {
    const dir = await tempDir();
    const encoded = encodeEvents(
      [opened(), captured(1, 'A'), forged],
      { seq: 0, hash: ZERO_HASH },
      {
        at: '2026-12-06T00:00:00.000Z',
        by: 'forger',
      },
    );
    await mkdir(path.join(dir, 'runs'));
    await writeFile(path.join(dir, 'runs', 'run-1.jsonl'), encoded.text);
    await writeFile(path.join(dir, 'runs', 'run-1.head'), encodeHead({ seq: 3, hash: encoded.lastHash }));
    const store = fileStore(dir);
    const read = await store.foldRun('run-1');
    expect(read).toMatchObject({ issue: null, events: 3, refused: 0 });
    expect(read.state.round).toBe(1);
    const audit = await foldRunFromStart(store, 'run-1');
    expect(audit).toMatchObject({ issue: null, events: 3, refused: 1 });
    expect(audit.state.round).toBe(0);
    const verified = await operations.verify({ store, by: 'tester' }, { runId: 'run-1' });
    expect(verified.runs[0]).toMatchObject({ events: 3, refused: 1 });
  });
});
