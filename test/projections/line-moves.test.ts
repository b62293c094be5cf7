import { describe, expect, it } from 'vitest';
import {
  contributionRecorded,
  type Finding,
  findingId,
  findingOf,
  findingView,
  type LineMove,
  type RoundReport,
  roundRecorded,
} from '../../src/index.js';
import { candidate, captured, decision, opened, report } from '../support/builders.js';
import { citedSpecification } from '../support/given.js';

/**
 * A finding's line follows its code (rules/line-moves.ts): a capture carries where each open
 * finding's cited line went, the round that reviews it applies the moves, and the finding keeps
 * where it was cited. A verifier may place a candidate elsewhere than its finder cited it.
 */
const { given, rejectionsSeen } = citedSpecification();

const major = candidate({ line: 42 });
const other = candidate({ file: 'src/db.js', line: 7, summary: 'Transaction never committed' });
const doc = candidate({ file: 'docs/guide.md', line: undefined, section: 'Install', summary: 'Wrong flag' });
const id = findingId(major);
const round1 = report(1, 'A', { candidates: [major, other, doc] });
const history = [opened(), captured(1, 'A'), roundRecorded(round1)] as const;
const touching = (moves: LineMove[] | undefined, extra: string[] = []) =>
  captured(2, 'B', { touched: [major.file, ...extra], moves });
const keptOpen = (...ids: string[]) =>
  report(2, 'B', { decisions: ids.map((i) => decision(i, 'open', 'still there, ten lines down')) });

describe('a capture moves an open finding’s line', () => {
  it('given a moved line, when the round is recorded, then the finding stands at its new line and keeps the cited one', () => {
    const spec = given(...history, touching([{ id, from: 42, to: 52 }]));
    // before the round is recorded, a person reads it where the captured input has it
    expect(findingView(findingOf(spec.state, id) as Finding, spec.state)).toMatchObject({
      line: 52,
      citation: 'src/service.js:52',
      cited: { file: 'src/service.js', line: 42 },
    });
    expect(findingOf(spec.state, id)?.line).toBe(42);
    const state = spec.whenReport(keptOpen(id)).accepts();
    const f = findingOf(state, id);
    expect(f).toMatchObject({ id, file: major.file, line: 52, cited: { file: major.file, line: 42 } });
    expect(f?.outdated).toBeUndefined();
    // the other file was not touched: its finding did not move and owes no decision
    expect(findingOf(state, findingId(other))).toMatchObject({ line: 7 });
    expect(findingOf(state, findingId(other))?.cited).toBeUndefined();
  });

  it('given a deleted or rewritten line, then the finding is outdated, stays open, and still needs its decision', () => {
    const spec = given(...history, touching([{ id, from: 42, to: 40, outdated: true }]));
    spec.whenReport(report(2, 'B')).rejects('missing-decision', /no decision for finding/);
    const state = spec.whenReport(keptOpen(id)).accepts();
    expect(findingOf(state, id)).toMatchObject({ status: 'open', line: 40, outdated: true });
    // fixed, it stays outdated on the record: its cited line is gone whatever happened after
    const fixed = given(...history, touching([{ id, from: 42, to: 40, outdated: true }]))
      .whenReport(report(2, 'B', { decisions: [decision(major, 'fixed', 'the line is gone')] }))
      .accepts();
    expect(findingOf(fixed, id)).toMatchObject({ status: 'fixed', outdated: true });
  });

  it('given a rename and a move in one capture, then the finding is in the new file at the new line, cited where it was', () => {
    const state = given(
      ...history,
      captured(2, 'B', {
        renames: [{ from: major.file, to: 'src/server.js' }],
        moves: [{ id, from: 42, to: 45 }],
      }),
    )
      .whenReport(keptOpen(id))
      .accepts();
    expect(findingOf(state, id)).toMatchObject({
      id,
      file: 'src/server.js',
      line: 45,
      cited: { file: major.file, line: 42 },
    });
  });

  it('given a capture replaced by another push, then only the latest capture’s moves apply', () => {
    const state = given(
      ...history,
      touching([{ id, from: 42, to: 99 }]),
      captured(2, 'C', { touched: [major.file], moves: [{ id, from: 42, to: 44 }] }),
    )
      .whenReport(report(2, 'C', { decisions: [decision(major, 'open', 'two lines down')] }))
      .accepts();
    expect(findingOf(state, id)?.line).toBe(44);
  });

  it('given a capture without moves (named by its input sha), then every finding keeps its cited line', () => {
    const state = given(...history, touching(undefined))
      .whenReport(keptOpen(id))
      .accepts();
    expect(findingOf(state, id)).toMatchObject({ line: 42 });
    expect(findingOf(state, id)?.cited).toBeUndefined();
  });

  it('given later captures, then the line follows round after round and the cited place stays the first', () => {
    const state = given(
      ...history,
      touching([{ id, from: 42, to: 52 }]),
      roundRecorded(keptOpen(id)),
      captured(3, 'C', { touched: [major.file], moves: [{ id, from: 52, to: 50 }] }),
    )
      .whenReport(report(3, 'C', { decisions: [decision(major, 'open', 'two lines up now')] }))
      .accepts();
    expect(findingOf(state, id)).toMatchObject({ line: 50, cited: { file: major.file, line: 42 } });
  });
});

describe('a capture’s moves are refused when the state says they cannot be', () => {
  const base = given(...history);
  it.each([
    [
      'from another line than it stands at',
      [{ id, from: 41, to: 52 }],
      /from line 41, but it stands at line 42/,
    ],
    [
      'twice',
      [
        { id, from: 42, to: 52 },
        { id, from: 42, to: 53 },
      ],
      /a second time/,
    ],
    ['in an untouched file', [{ id: findingId(other), from: 7, to: 9 }], /did not touch its file/],
    ['citing a section', [{ id: findingId(doc), from: 1, to: 2 }], /cites a section/],
  ])('a move %s: invalid-move, nothing changes', (_, moves, message) => {
    base.whenEvent(touching(moves, [doc.file])).rejects('invalid-move', message);
  });

  it('a move of a closed finding: invalid-move', () => {
    given(
      ...history,
      touching(undefined),
      roundRecorded(report(2, 'B', { decisions: [decision(major, 'fixed', 'closed in finally')] })),
    )
      .whenEvent(captured(3, 'C', { touched: [major.file], moves: [{ id, from: 42, to: 43 }] }))
      .rejects('invalid-move', /which is fixed/);
  });

  it.each([0, -1, 2.5])('a move to line %s: invalid-line', (to) => {
    base.whenEvent(touching([{ id, from: 42, to }])).rejects('invalid-line', /a line is an integer >= 1/);
  });

  it('a move of no finding of the run: unknown-finding', () => {
    base
      .whenEvent(touching([{ id: 'a'.repeat(64), from: 1, to: 2 }]))
      .rejects('unknown-finding', /no finding of the run/);
  });

  it('reaches the codes of its rules', () => {
    expect([...rejectionsSeen].sort()).toEqual(
      expect.arrayContaining(['invalid-line', 'invalid-move', 'unknown-finding']),
    );
  });
});

describe('a verifier places a candidate where it is', () => {
  const finder: RoundReport = report(1, 'A', {
    candidates: [{ ...major, confirmed: undefined, verdict: 'plausible' }],
  });
  const verifier = (correction: object, verdict = 'confirmed'): RoundReport =>
    report(1, 'A', {
      verifications: [
        {
          file: major.file,
          category: major.category,
          summary: major.summary,
          verdict: verdict as 'confirmed',
          evidence: 'reproduced it',
          correction: correction as { line: number; evidence: string },
        },
      ],
    });
  const spec = (v: RoundReport) =>
    given(
      opened(),
      captured(1, 'A'),
      contributionRecorded(finder, 'finder'),
      contributionRecorded(v, 'vera'),
    );

  it('given a correction of line and file, then the finding opens there under its finder’s id, the finder’s place on the record', () => {
    const state = spec(
      verifier({ file: 'src/pool.js', line: 88, evidence: 'line 88 is where the handle is dropped' }),
    )
      .whenMerged()
      .accepts();
    const f = findingOf(state, id);
    expect(f).toMatchObject({
      id,
      file: 'src/pool.js',
      line: 88,
      cited: { file: major.file, line: 42 },
      correction: { by: 'vera', evidence: 'line 88 is where the handle is dropped' },
      verdict: 'confirmed',
    });
  });

  it('given a correction of the line only, then the file stays the finder’s', () => {
    const state = spec(verifier({ line: 12, evidence: 'the call is on line 12' }))
      .whenMerged()
      .accepts();
    expect(findingOf(state, id)).toMatchObject({ file: major.file, line: 12, cited: { line: 42 } });
  });

  it('a correction to line 0, without evidence, or on a refuted candidate is refused', () => {
    const before = given(opened(), captured(1, 'A'), contributionRecorded(finder, 'finder'));
    before
      .whenEvent(contributionRecorded(verifier({ line: 0, evidence: 'x' }), 'vera'))
      .rejects('invalid-line', /correction\.line is 0/);
    before
      .whenEvent(contributionRecorded(verifier({ line: 3, evidence: '  ' }), 'vera'))
      .rejects('empty-evidence', /correction\.evidence is empty/);
    before
      .whenEvent(contributionRecorded(verifier({ line: 3, evidence: 'x' }, 'refuted'), 'vera'))
      .rejects('invalid-report', /refutes the candidate and corrects where it is/);
  });

  it('a correction to the place its finder gave changes nothing', () => {
    const state = spec(verifier({ line: 42, evidence: 'it is where it was cited' }))
      .whenMerged()
      .accepts();
    expect(findingOf(state, id)?.cited).toBeUndefined();
    expect(findingOf(state, id)?.correction).toBeUndefined();
  });
});
