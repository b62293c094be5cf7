import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { feedbackMarkdown, findingId, PRESETS, roundRecorded } from '../../src/index.js';
import {
  candidate,
  captured,
  ended,
  extended,
  opened,
  openedWith,
  report,
  sha,
} from '../support/builders.js';
import { decide, fold } from '../support/decider.js';

const major = candidate();
const round1 = [opened(), captured(1, 'A'), roundRecorded(report(1, 'A', { candidates: [major] }))];
const feedbackOf = (events: Parameters<typeof fold>[0]) => feedbackMarkdown(fold(events).state, 'the log');

describe('feedback tells the author everything', () => {
  it('a ci_failed round: the diagnosis is the feedback', () => {
    const text = feedbackOf([...round1, captured(2, 'B'), ended(2, 'ci_failed', 'npm test: 3 failures')]);
    expect(text).toMatch(/^## Review feedback, round 2\n/);
    expect(text).toContain('Round 2 ended without a review because CI failed: npm test: 3 failures.');
  });

  it('a round that ended with no report says why', () => {
    const text = feedbackOf([...round1, captured(2, 'B'), ended(2, 'none', 'the reviewer\n  crashed')]);
    expect(text).toContain('Round 2 ended without a review: the reviewer crashed.');
    expect(feedbackOf(round1)).not.toMatch(/ended without a review/);
  });

  it('after an extension: the cap in force, and who extended it, never "round 3 of 2"', () => {
    const blocked = [
      openedWith({ ...PRESETS.default, maxRounds: 2 }),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] })),
      captured(2, 'B', { touched: ['README.md'] }),
      roundRecorded(report(2, 'B')),
    ];
    expect(feedbackOf(blocked)).toContain('round 2 was the last of 2');
    const text = feedbackOf([...blocked, extended(1, 'the fix landed late', 'Ada Lovelace')]);
    expect(text).toContain('must be fixed or answered before round 3 of 3.');
    expect(text).toContain(
      "The cap is 3 rounds: the policy's 2, extended 1 by Ada Lovelace (the fix landed late).",
    );
    expect(text).not.toMatch(/round 3 of 2/);
  });

  it('the ids it shows can be pasted back as decisions', () => {
    const text = feedbackOf(round1);
    // the citation is the reviewer's text, shown as written: nothing in it is Markdown
    const shown = /- `([0-9a-f]{12})` \*\*src\/service\.js:10\*\*/.exec(text)?.[1];
    expect(shown).toBe(findingId(major).slice(0, 12));
    expect(text).toContain(`{"id": "${shown}", "status": "fixed"`);
    const state = fold([...round1, captured(2, 'B', { touched: [major.file] })]).state;
    const answered = decide(
      state,
      report(2, 'B', { decisions: [{ id: shown as string, status: 'fixed', evidence: 'closed' }] }),
    );
    expect(E.isRight(answered) && answered.right.state.status).toBe('converged');
  });

  it('a failed attempt to collect the round is in the brief', () => {
    const failed = {
      type: 'round.failed',
      data: { round: 2, inputSha: sha('B'), reason: 'timeout', detail: 'no report after 600000 ms' },
    } as const;
    expect(feedbackOf([...round1, captured(2, 'B'), failed])).toContain(
      'The last attempt at round 2 failed (timeout): no report after 600000 ms.',
    );
  });
});
