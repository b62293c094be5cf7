import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  decodeStoredEvent,
  encodeLine,
  latestVersion,
  PRESETS,
  roundRecorded,
  ZERO_HASH,
} from '../../src/index.js';
import { candidate, report } from '../support/builders.js';

const envelope = (type: string, data: unknown, v = 1) => ({
  seq: 1,
  type,
  v,
  at: '2026-11-30T07:00:00.000Z',
  by: 'ci',
  prev: ZERO_HASH,
  data,
});

describe('the persisted event codec', () => {
  it('round-trips every event through a log line, at its latest version', () => {
    const events = [
      {
        type: 'run.opened',
        data: { runId: 'r', policy: PRESETS.default, subject: {}, consent: { by: 'me' } },
      },
      {
        type: 'revision.captured',
        data: {
          round: 1,
          inputSha: 'a',
          touchedFiles: ['x'],
          renames: [{ from: 'x', to: 'y' }],
          commit: 'a',
        },
      },
      roundRecorded(report(1, 'A', { candidates: [candidate()] })),
      {
        type: 'round.failed',
        data: { round: 2, inputSha: 'b', reason: 'timeout', detail: 'no report after 80 ms' },
      },
    ] as const;
    for (const event of events) {
      const line = encodeLine({ seq: 3, at: 'now', by: 'me', prev: ZERO_HASH, ...event });
      const v = latestVersion(event.type);
      expect(line).toMatch(
        new RegExp(`^\\{"seq":3,"type":"[a-z.]+","v":${v},"at":"now","by":"me","prev":"0{64}","data":\\{`),
      );
      const decoded = decodeStoredEvent(JSON.parse(line));
      expect(decoded).toEqual(E.right({ seq: 3, v, at: 'now', by: 'me', prev: ZERO_HASH, ...event }));
    }
  });

  it('upcasts v1 events in memory: an old run ran no stages and had no budget; an old round was complete', () => {
    const {
      stages: _s,
      budget: _b,
      blockingCategories: _c,
      principleCategories: _p,
      ...v1Policy
    } = PRESETS.default;
    const opened = decodeStoredEvent(
      envelope('run.opened', { runId: 'r', policy: v1Policy, subject: {}, consent: { by: 'me' } }, 1),
    );
    expect(opened).toMatchObject(
      E.right({
        v: 1,
        data: {
          policy: { ...v1Policy, stages: [], budget: {}, blockingCategories: null, principleCategories: [] },
        },
      }),
    );
    const { result: _r, ...v1Round } = roundRecorded(report(1, 'A')).data;
    expect(decodeStoredEvent(envelope('round.recorded', v1Round, 1))).toMatchObject(
      E.right({ v: 1, data: { ...v1Round, result: 'complete' } }),
    );
    // a v2 line must carry what v2 requires
    expect(E.isLeft(decodeStoredEvent(envelope('round.recorded', v1Round, 2)))).toBe(true);
  });

  it('names the failing path inside the data', () => {
    const bad = roundRecorded(report(1, 'A', { candidates: [candidate()] }));
    const data = { ...bad.data, report: { ...bad.data.report, candidates: [{ ...candidate(), line: '7' }] } };
    const decoded = decodeStoredEvent(envelope('round.recorded', data));
    expect(E.isLeft(decoded) && decoded.left.path).toBe('data.report.candidates.0.line');
    expect(E.isLeft(decoded) && decoded.left.message).toMatch(/expected number, got "7"/);
  });

  it('names a missing envelope field', () => {
    const { prev: _, ...noPrev } = envelope('round.failed', {});
    const decoded = decodeStoredEvent(noPrev);
    expect(E.isLeft(decoded) && decoded.left.path).toBe('prev');
  });

  it('refuses an unknown type and a version it does not know, saying which', () => {
    const unknownType = decodeStoredEvent(envelope('round.deleted', {}));
    expect(E.isLeft(unknownType) && unknownType.left.message).toMatch(/unknown event type "round.deleted"/);
    const future = decodeStoredEvent(envelope('round.failed', {}, 9));
    expect(E.isLeft(future) && future.left.path).toBe('v');
  });
});
