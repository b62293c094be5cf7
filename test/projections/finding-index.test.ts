import { describe, expect, it } from 'vitest';
import {
  findingOf,
  findingsInOrder,
  openBlockingCount,
  openFindingsIn,
  roundRecorded,
} from '../../src/index.js';
import { candidate, captured, decision, idOf, opened, report } from '../support/builders.js';
import { fold } from '../support/decider.js';

// The findings index as the accessors read it, for what the generated runs do not reach: several
// renames in one capture (a swap, two into one file, a chain), and a file any text can name.

const inA = candidate({ file: 'src/a.js', summary: 'Leak in a' });
const inB = candidate({ file: 'src/b.js', summary: 'Leak in b' });
const fixedInB = candidate({ file: 'src/b.js', summary: 'Race in b' });
const inC = candidate({ file: 'src/c.js', summary: 'Leak in c' });
const inD = candidate({ file: 'src/d.js', summary: 'Leak in d' });
const odd = candidate({ file: 'src/ü ☃ "quoted"\n.js', summary: 'Leak in an odd name' });

const round1 = roundRecorded(report(1, 'A', { candidates: [inA, inB, fixedInB, inC, inD, odd] }));
const round2 = roundRecorded(
  report(2, 'B', { decisions: [decision(inB, 'open'), decision(fixedInB, 'fixed')] }),
);

describe('the findings index', () => {
  it('moves every finding of a renamed file at once: a swap swaps, two files can become one, a chain moves one step', () => {
    const renames = [
      { from: 'src/a.js', to: 'src/b.js' },
      { from: 'src/b.js', to: 'src/a.js' },
      { from: 'src/c.js', to: 'src/d.js' },
      { from: 'src/d.js', to: 'src/e.js' },
      { from: 'src/nothing-here.js', to: 'src/still-nothing.js' },
    ];
    const base = [opened(), captured(1, 'A'), round1, captured(2, 'B', { touched: ['src/b.js'] }), round2];
    const { state, trail } = fold([
      ...base,
      captured(3, 'C', { renames }),
      roundRecorded(
        report(3, 'C', {
          decisions: [inA, inB, inC, inD].map((c) => decision(c, 'open', 'still there after the move')),
        }),
      ),
    ]);
    expect(trail.map((t) => t.rejection)).toEqual(trail.map(() => null));
    const fileOf = (c: typeof inA) => findingOf(state, idOf(c))?.file;
    expect([fileOf(inA), fileOf(inB), fileOf(fixedInB), fileOf(inC), fileOf(inD)]).toEqual([
      'src/b.js',
      'src/a.js',
      'src/a.js',
      'src/d.js',
      'src/e.js',
    ]);
    const openIn = (file: string) => openFindingsIn(state, file).map((f) => f.id);
    expect(openIn('src/a.js')).toEqual([idOf(inB)]);
    expect(openIn('src/b.js')).toEqual([idOf(inA)]);
    expect(openIn('src/c.js')).toEqual([]);
    expect(openIn('src/d.js')).toEqual([idOf(inC)]);
    expect(openIn('src/e.js')).toEqual([idOf(inD)]);
    // the trail names every finding that moved, closed ones too, in the order they opened
    expect(trail.at(-2)?.moved).toEqual([]);
    expect(trail.at(-1)?.moved.map((m) => [m.id, m.from, m.to])).toEqual([
      [idOf(inA), 'src/a.js', 'src/b.js'],
      [idOf(inB), 'src/b.js', 'src/a.js'],
      [idOf(fixedInB), 'src/b.js', 'src/a.js'],
      [idOf(inC), 'src/c.js', 'src/d.js'],
      [idOf(inD), 'src/d.js', 'src/e.js'],
    ]);
  });

  it('a round owes a decision for each open finding of a file renamed into a touched one, and only those', () => {
    const renames = [{ from: 'src/c.js', to: 'src/d.js' }];
    const rounds = [opened(), captured(1, 'A'), round1, captured(2, 'B', { touched: ['src/b.js'] }), round2];
    const owed = fold([...rounds, captured(3, 'C', { renames }), roundRecorded(report(3, 'C'))]);
    expect(owed.trail.at(-1)?.rejection?.code).toBe('missing-decision');
    expect(owed.trail.at(-1)?.rejection?.message).toMatch(new RegExp(idOf(inC).slice(0, 12)));
  });

  it('keys a file by what it says, any text at all, and counts what blocks', () => {
    const { state } = fold([opened(), captured(1, 'A'), round1]);
    expect(openFindingsIn(state, odd.file).map((f) => f.id)).toEqual([idOf(odd)]);
    expect(openFindingsIn(state, 'src/ü ☃ "quoted".js')).toEqual([]);
    expect(openBlockingCount(state)).toBe(6);
    expect(findingsInOrder(state).map((f) => f.id)).toEqual([inA, inB, fixedInB, inC, inD, odd].map(idOf));
    const after = fold([
      opened(),
      captured(1, 'A'),
      round1,
      captured(2, 'B', { touched: ['src/b.js'] }),
      round2,
    ]);
    expect(openBlockingCount(after.state)).toBe(5);
    expect(openFindingsIn(after.state, 'src/b.js').map((f) => f.id)).toEqual([idOf(inB)]);
  });
});
