import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type StoredEvent, toArray } from '../../src/index.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { fold } from '../support/decider.js';

/**
 * The frozen v7 log (test/fixtures/v7) holds a signed extension and a signed ruling under a policy
 * that pins Ada Lovelace's key. Folded as it is, both count and keep who signed; each one altered,
 * stripped of its signature, or moved to follow another line is refused as `unsigned-ruling`, the
 * state as it was before it.
 */
const V7 = new URL('../fixtures/v7/', import.meta.url).pathname;
const RUN = 'v7-signed-rulings';

const events = (): StoredEvent[] =>
  parseLog(readFileSync(`${V7}${RUN}.jsonl`), parseHead(readFileSync(`${V7}${RUN}.head`, 'utf8')))
    .events as StoredEvent[];

const refusedIn = (evs: ReadonlyArray<StoredEvent>) =>
  fold(evs)
    .trail.filter((t) => t.rejection !== null)
    .map((t) => `${t.seq} ${t.rejection?.code}`);

describe('frozen v7 log: rulings only a key holder can make', () => {
  it('folds to converged by the signed ruling, each decision keeping the key that signed it', () => {
    const { state, trail } = fold(events());
    expect(trail.filter((t) => t.rejection !== null)).toEqual([]);
    expect(state).toMatchObject({
      status: 'converged',
      convergedBy: { by: 'Ada Lovelace' },
    });
    const keyid = (state.run?.policy.signers ?? []).length === 1 ? expect.stringMatching(/^SHA256:/) : null;
    expect(toArray(state.extensions)).toEqual([
      expect.objectContaining({ by: 'Ada Lovelace', signedBy: keyid }),
    ]);
    expect(toArray(state.rulings)).toEqual([
      expect.objectContaining({ by: 'Ada Lovelace', signedBy: keyid }),
    ]);
  });

  it('refuses a signed decision altered, unsigned, by someone else, or replayed at another place', () => {
    const original = events();
    const at = (type: string) => original.findIndex((e) => e.type === type);
    const with_ = (i: number, change: (e: StoredEvent) => StoredEvent) =>
      original.map((e, j) => (j === i ? change(e) : e));
    const ruled = at('finding.ruled');
    const extended = at('rounds.extended');
    const data = (e: StoredEvent) => e.data as Record<string, unknown>;
    const cases: ReadonlyArray<readonly [string, StoredEvent[]]> = [
      [
        'why altered',
        with_(ruled, (e) => ({ ...e, data: { ...data(e), why: 'something else' } }) as StoredEvent),
      ],
      [
        'status altered',
        with_(ruled, (e) => ({ ...e, data: { ...data(e), status: 'fixed' } }) as StoredEvent),
      ],
      ['rounds altered', with_(extended, (e) => ({ ...e, data: { ...data(e), rounds: 5 } }) as StoredEvent)],
      [
        'signature stripped',
        with_(ruled, (e) => {
          const { signature: _, ...rest } = data(e);
          return { ...e, data: rest } as StoredEvent;
        }),
      ],
      [
        'by someone else',
        with_(ruled, (e) => ({ ...e, data: { ...data(e), by: 'Mallory' } }) as StoredEvent),
      ],
      ['follows another line', with_(ruled, (e) => ({ ...e, prev: '0'.repeat(64) }))],
    ];
    for (const [what, evs] of cases) {
      const seq = (evs[what === 'rounds altered' ? extended : ruled] as StoredEvent).seq;
      expect(refusedIn(evs), what).toContain(`${seq} unsigned-ruling`);
    }
    // the extension replayed later in the same run, where the run is blocked again (round 2, at the
    // new cap): a decision the rules would take, but its signature was made to follow line 3
    const blockedAgain = original.slice(0, ruled);
    const replayed = [
      ...blockedAgain,
      { ...(original[extended] as StoredEvent), seq: ruled + 1, prev: (original[ruled] as StoredEvent).prev },
    ];
    expect(refusedIn(blockedAgain)).toEqual([]);
    expect(refusedIn(replayed)).toEqual([`${ruled + 1} unsigned-ruling`]);
  });
});
