import { describe, expect, it } from 'vitest';
import {
  type Finding,
  findingId,
  findingOf,
  findingsInOrder,
  historyOf,
  openFindings,
  roundRecorded,
} from '../../src/index.js';
import { candidate, captured, decision, nit, opened, report } from '../support/builders.js';
import { fold } from '../support/decider.js';
import { given } from '../support/given.js';

const major = candidate();
const round1 = report(1, 'A', { candidates: [major] });

describe('a review loop under the default policy', () => {
  it('a moved line in a touched file without a decision is refused; with one it converges', () => {
    const spec = given(
      opened(),
      captured(1, 'A'),
      roundRecorded(round1),
      captured(2, 'B', { touched: [major.file] }),
    );
    spec
      .whenReport(report(2, 'B'))
      .rejects('missing-decision', /no decision for finding 827f9ded38b8.*src\/service\.js.*touched file/);
    // the reviewer saw the finding move to line 42: it is the same finding, and it needs the same ruling
    const state = spec
      .whenReport(report(2, 'B', { decisions: [decision(major, 'fixed', 'closed in finally, line 42')] }))
      .accepts();
    expect(state.status).toBe('converged');
    expect(findingOf(state, findingId(major))?.status).toBe('fixed');
  });

  it('an untouched open finding stays open through 4 rounds, ends blocked, and a 5th round is refused', () => {
    let events = [opened(), captured(1, 'A'), roundRecorded(round1)];
    for (const [round, input] of [
      [2, 'B'],
      [3, 'C'],
      [4, 'D'],
    ] as const) {
      events = [
        ...events,
        captured(round, input, { touched: ['README.md'] }),
        roundRecorded(report(round, input)),
      ];
    }
    const { state } = fold(events);
    expect(state.status).toBe('blocked');
    expect(state.round).toBe(4);
    const finding = findingOf(state, findingId(major));
    expect(finding?.status).toBe('open');
    expect(historyOf(state, finding as Finding).map((h) => h.how)).toEqual([
      'opened',
      'carried',
      'carried',
      'carried',
    ]);
    given(...events)
      .whenReport(report(5, 'E'), { capture: captured(5, 'E').data })
      .rejects('run-final', /blocked after round 4/);
  });

  it('a late confirmed major keeps the run open', () => {
    const late = candidate({ file: 'src/db.js', summary: 'Transaction never committed' });
    const state = given(
      opened(),
      captured(1, 'A'),
      roundRecorded(round1),
      captured(2, 'B', { touched: [major.file] }),
    )
      .whenReport(
        report(2, 'B', { candidates: [late], decisions: [decision(major, 'fixed', 'closed in finally')] }),
      )
      .accepts();
    expect(state.status).toBe('open');
    expect(openFindings(state).map((f) => f.id)).toEqual([findingId(late)]);
  });

  it('a round with only nits converges in round 1: nits never block', () => {
    const state = given(opened(), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [nit(1), nit(2)] }))
      .accepts();
    expect(state.status).toBe('converged');
    expect(openFindings(state)).toHaveLength(2);
  });

  it('late nits are suppressed and shown as suppressed in the trail', () => {
    const events = [
      opened(),
      captured(1, 'A'),
      roundRecorded(round1),
      captured(2, 'B', { touched: ['README.md'] }),
      roundRecorded(report(2, 'B', { candidates: [nit(7)] })),
    ];
    const { state, trail } = fold(events);
    expect(findingOf(state, findingId(nit(7)))).toBeUndefined();
    expect(state.status).toBe('open');
    const last = trail.at(-1);
    expect(last?.rejection).toBeNull();
    expect(last?.opened).toEqual([]);
    expect(last?.suppressed).toEqual([
      {
        id: findingId(nit(7)),
        round: 2,
        file: 'src/style.js',
        line: 7,
        section: null,
        severity: 'nit',
        summary: 'nit number 7',
        reason: 'late',
      },
    ]);
  });

  it('the 6th nit of round 1 is suppressed (at most 5 nits in all)', () => {
    const nits = [1, 2, 3, 4, 5, 6].map((n) => nit(n));
    const { state, trail } = fold([
      opened(),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: nits })),
    ]);
    expect(findingsInOrder(state).map((f) => f.id)).toEqual(nits.slice(0, 5).map(findingId));
    expect(trail.at(-1)?.suppressed.map((s) => [s.id, s.reason])).toEqual([
      [findingId(nits[5] ?? nit(6)), 'cap'],
    ]);
    expect(state.admitted).toEqual({ nit: 5 });
  });

  it('a rename keeps the id and requires a decision under the new path', () => {
    const renames = [{ from: 'src/service.js', to: 'src/service/index.js' }];
    const spec = given(opened(), captured(1, 'A'), roundRecorded(round1), captured(2, 'B', { renames }));
    spec.whenReport(report(2, 'B')).rejects('missing-decision', /src\/service\/index\.js/);
    const state = spec
      .whenReport(report(2, 'B', { decisions: [decision(major, 'open', 'still leaks after the move')] }))
      .accepts();
    const moved = findingOf(state, findingId(major));
    expect(moved?.file).toBe('src/service/index.js');
    expect(moved?.id).toBe(findingId(major));
    expect(state.status).toBe('open');
    // the trail says the finding moved
    const { trail } = fold([
      ...[opened(), captured(1, 'A'), roundRecorded(round1), captured(2, 'B', { renames })],
      roundRecorded(report(2, 'B', { decisions: [decision(major, 'open', 'still leaks')] })),
    ]);
    expect(trail.at(-1)?.moved).toEqual([
      { id: findingId(major), from: 'src/service.js', to: 'src/service/index.js' },
    ]);
  });

  it('a document finding cites a section instead of a line', () => {
    const doc = candidate({
      file: 'docs/guide.md',
      line: undefined,
      section: 'Install',
      summary: 'Wrong command',
    });
    const { line: _, ...cited } = doc;
    const state = given(opened(), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [cited] }))
      .accepts();
    const finding = findingOf(state, findingId(cited));
    expect(finding).toMatchObject({ line: null, section: 'Install' });
  });

  it('the latest capture of a round wins', () => {
    const spec = given(opened(), captured(1, 'A'), captured(1, 'A2'));
    spec.whenReport(report(1, 'A')).rejects('wrong-input');
    expect(spec.whenReport(report(1, 'A2')).accepts().reviewed?.inputSha).toBe(
      captured(1, 'A2').data.inputSha,
    );
  });

  it('a withdrawn finding closes, and a converged run accepts nothing more', () => {
    const spec = given(
      opened(),
      captured(1, 'A'),
      roundRecorded(round1),
      captured(2, 'B', { touched: [major.file] }),
    );
    const state = spec
      .whenReport(
        report(2, 'B', { decisions: [decision(major, 'withdrawn', 'not reachable: guarded by caller')] }),
      )
      .accepts();
    expect(state.status).toBe('converged');
    expect(findingOf(state, findingId(major))?.status).toBe('withdrawn');
  });
});
