import { describe, expect, it } from 'vitest';
import {
  explain,
  findingId,
  openFindings,
  renderExplanation,
  roundRecorded,
  statusOf,
} from '../../src/index.js';
import { candidate, captured, nit, opened, report, sha } from '../support/builders.js';
import { fold } from '../support/decider.js';

const major = candidate();
const events = [
  opened(),
  captured(1, 'A'),
  roundRecorded(report(1, 'A', { candidates: [major, nit(1)] })),
  captured(2, 'B', { touched: ['README.md'] }),
  roundRecorded(report(2, 'B')),
];

describe('views', () => {
  it('statusOf carries the run, the round, the cap, the input and every finding', () => {
    const view = statusOf(fold(events).state);
    expect(view).toMatchObject({
      runId: 'run-1',
      status: 'open',
      round: 2,
      maxRounds: 4,
      inputSha: sha('B'),
      captured: false,
    });
    expect(view.counts).toEqual({
      open: 2,
      openBlocking: 1,
      fixed: 0,
      withdrawn: 0,
      suppressed: 0,
      deferred: 0,
    });
    expect(view.findings[0]).toMatchObject({
      id: findingId(major),
      file: major.file,
      line: 10,
      severity: 'major',
      status: 'open',
      blocking: true,
      roundsOpen: 2,
    });
  });

  it('explain names the open blocking findings and the rounds that kept them open', () => {
    const e = explain(fold(events).state);
    expect(e.headline).toBe('open after round 2 of 4: 1 blocking finding is open, so round 3 is needed');
    expect(e.blocking.map((b) => [b.id, b.keptOpen.map((s) => `${s.round}:${s.how}`)])).toEqual([
      [findingId(major), ['1:opened', '2:carried']],
    ]);
    expect(e.advisoryOpen).toBe(1);
    const text = renderExplanation(e);
    expect(text).toContain(`${findingId(major).slice(0, 12)} [major] src/service.js:10 Missing close`);
    expect(text).toContain('round 2 carried it (file untouched, or nothing was reviewed)');
  });

  it('explain says why a blocked run is blocked', () => {
    const more = [...events];
    for (const [r, s] of [
      [3, 'C'],
      [4, 'D'],
    ] as const)
      more.push(captured(r, s, { touched: ['README.md'] }), roundRecorded(report(r, s)));
    const e = explain(fold(more).state);
    expect(e.status).toBe('blocked');
    expect(e.headline).toMatch(/blocked at round 4, the cap of 4 rounds: 1 blocking finding is still open/);
  });

  it('openFindings lists what is open, in the order it opened', () => {
    expect(openFindings(fold(events).state).map((f) => f.id)).toEqual([findingId(major), findingId(nit(1))]);
  });
});
