import { describe, expect, it } from 'vitest';
import {
  type Finding,
  findingId,
  findingOf,
  findingsInOrder,
  last,
  PRESETS,
  roundRecorded,
  toArray,
} from '../../src/index.js';
import { candidate, captured, decision, opened, recordedResolved, report } from '../support/builders.js';
import { given } from '../support/given.js';

const high = candidate({ severity: 'high' });
const medium = candidate({ file: 'src/ui.js', summary: 'Label overlaps', severity: 'medium' });
const issueflow = opened(PRESETS.issueflow);
const afterRound1 = [
  issueflow,
  captured(1, 'A'),
  recordedResolved(report(1, 'A', { candidates: [high, medium] })),
] as const;

describe('the issueflow preset', () => {
  it('critical and high block; medium and low advise and never block', () => {
    const state = given(issueflow, captured(1, 'A'))
      .whenCited(report(1, 'A', { candidates: [high, medium] }))
      .accepts();
    expect(state.status).toBe('open');
    expect(findingOf(state, findingId(high))?.blocking).toBe(true);
    expect(findingOf(state, findingId(medium))?.blocking).toBe(false);
    const advisoryOnly = given(issueflow, captured(1, 'A'))
      .whenCited(report(1, 'A', { candidates: [medium, candidate({ severity: 'low', summary: 'typo' })] }))
      .accepts();
    expect(advisoryOnly.status).toBe('converged');
  });

  it('medium findings enter in any round and without a cap', () => {
    const late = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      candidate({ file: 'src/ui.js', summary: `late ${n}`, severity: 'medium' }),
    );
    const state = given(...afterRound1, captured(2, 'B'))
      .whenCited(report(2, 'B', { candidates: late }))
      .accepts();
    expect(findingsInOrder(state).map((f) => f.id)).toHaveLength(9);
    expect(toArray(state.suppressed)).toEqual([]);
  });

  it('has 3 rounds: an open blocking finding at round 3 is blocked', () => {
    const events = [
      ...afterRound1,
      captured(2, 'B', { touched: ['README.md'] }),
      roundRecorded(report(2, 'B', { notExamined: ['nothing changed in reviewed files'] })),
      captured(3, 'C', { touched: ['README.md'] }),
    ];
    const state = given(...events)
      .whenCited(report(3, 'C', { notExamined: ['only README.md changed'] }))
      .accepts();
    expect(state.status).toBe('blocked');
  });

  it('on an untouched file a decision may say open or withdrawn, never fixed', () => {
    const spec = given(...afterRound1, captured(2, 'B', { touched: ['README.md'] }));
    const notExamined = ['README.md only'];
    spec
      .whenCited(report(2, 'B', { notExamined, decisions: [decision(high, 'fixed', 'looks fixed')] }))
      .rejects('untouched-decision', /allows: open or withdrawn/);
    const withdrawn = spec
      .whenCited(
        report(2, 'B', { notExamined, decisions: [decision(high, 'withdrawn', 'misread the guard')] }),
      )
      .accepts();
    expect(findingOf(withdrawn, findingId(high))?.status).toBe('withdrawn');
    expect(withdrawn.status).toBe('converged');
    const kept = spec
      .whenCited(report(2, 'B', { notExamined, decisions: [decision(high, 'open', 'still there')] }))
      .accepts();
    expect(last((findingOf(kept, findingId(high)) as Finding).steps)).toEqual({
      round: 2,
      how: 'decided',
      status: 'open',
      evidence: 'still there',
    });
  });

  it('a report with no candidates but a notExamined list is accepted', () => {
    const state = given(issueflow, captured(1, 'A'))
      .whenCited(report(1, 'A', { notExamined: ['the migration scripts'] }))
      .accepts();
    expect(state.status).toBe('converged');
  });

  it('refuses a declared verdict that disagrees, as every preset does', () => {
    given(issueflow, captured(1, 'A'))
      .whenCited(report(1, 'A', { candidates: [high], verdict: 'converged' }))
      .rejects('verdict-mismatch');
    given(issueflow, captured(1, 'A'))
      .whenCited(report(1, 'A', { candidates: [medium], verdict: 'converged' }))
      .accepts();
  });

  it('the default policy does not know issueflow severities', () => {
    given(opened(), captured(1, 'A'))
      .whenCited(report(1, 'A', { candidates: [high] }))
      .rejects('unknown-severity');
  });
});
