import { describe, expect, it } from 'vitest';
import { type Explanation, explain, type FindingStep, renderExplanation } from '../../src/fold.js';
import { hasControl, plainText } from '../../src/text/untrusted.js';
import {
  ALL_HOSTILE,
  HOSTILE,
  HOSTILE_STRINGS,
  rawControls,
  runnerCommands,
} from '../support/actions-runner.js';
import {
  accepted,
  blockedRun,
  checksRun,
  convergedRun,
  deferredWith,
  disputeWith,
  TALLY,
} from './hostile-runs.js';

/**
 * `clearance explain` prints this text to a terminal and, under `docs/github-actions.md`, to a CI
 * log. Whatever a reviewer or a person put in the log, the runner reads no command in it, the
 * terminal gets no control, and each value stays inside the line clearance began for it.
 */

const STEPS = (h: string): FindingStep[] => [
  { round: 1, how: 'opened', status: 'open' },
  { round: 2, how: 'decided', status: 'open', evidence: h },
  { round: 3, how: 'carried', status: 'open' },
  { round: 4, how: 'reopened', status: 'open', evidence: h },
  { round: 5, how: 'ruled', status: 'open', evidence: h, by: h },
];

const ID = 'f'.repeat(64);

/** Every field `renderExplanation` shows: `h` in each one that holds text, `id` in the ids and shas. */
const everyField = (h: string, id = ID, refutedEvidence = h): Explanation => {
  const mergedFrom = [{ id, reviewer: h, file: h, line: 3, category: h }];
  const refuted = {
    id,
    round: 1,
    file: h,
    line: 4,
    section: null,
    category: h,
    severity: h,
    summary: h,
    by: [h],
    evidence: refutedEvidence,
    claim: h,
  };
  return {
    status: 'blocked',
    headline: `converged by ruling of ${h} after round 3: ${h}`,
    blockedReason: 'cap',
    stall: null,
    blocking: [
      {
        id,
        file: h,
        line: 1,
        citation: h,
        severity: h,
        summary: h,
        openedRound: 1,
        keptOpen: STEPS(h),
        reviewers: [h, h],
        corroboration: 2,
        mergedFrom,
      },
    ],
    advisoryOpen: 1,
    incomplete: [{ round: 2, result: 'partial', reason: h, tally: TALLY }],
    rulings: [{ round: 3, findingId: id, status: 'withdrawn', why: h, by: h }],
    extensions: [{ round: 3, rounds: 1, why: h, by: h }],
    convergedBy: h,
    panels: [
      {
        round: 1,
        contributors: [h, h],
        reports: [],
        absent: [{ expert: h, reason: 'missing', detail: h }],
      },
    ],
    merges: [
      {
        id,
        citation: h,
        severity: h,
        status: 'fixed',
        blocking: false,
        openedRound: 1,
        reviewers: [h],
        corroboration: 1,
        mergedFrom,
      },
    ],
    // a deferred candidate's evidence shows its first line only, as a refuted one's
    deferred: [
      { ...deferredWith(h, id), evidence: refutedEvidence },
      { ...deferredWith(h, id, 'outside-fix'), evidence: refutedEvidence, reviewers: [] },
    ],
    rounds: [
      { round: 1, result: 'complete', reason: null, tally: TALLY, spent: { tokens: 10 } },
      { round: 2, result: 'partial', reason: h, tally: { ...TALLY, filesChanged: null }, spent: {} },
    ],
    trend: 'flat',
    sameInput: { rounds: 1, allowed: 2, each: [{ round: 2, reason: h }] },
    refuted: [refuted, { ...refuted, round: 2, before: { round: 1, how: 'refuted' } }],
    disputes: [
      disputeWith(h, id, 2, { round: 2, status: 'open', evidence: refutedEvidence }),
      disputeWith(h, id, 3, { round: 3, status: 'withdrawn', evidence: refutedEvidence, by: h }, 'withdrawn'),
      disputeWith(h, id, 4, null),
    ],
    reruns: [{ round: 2, inputSha: id, findingId: id, outcome: 'still-fails', outputSha: id }],
  };
};

const SAMPLES = [...HOSTILE_STRINGS, ALL_HOSTILE];

/** The output holds the runner's commands and raw controls it holds, and how many lines. */
const asRead = (text: string) => ({
  commands: runnerCommands(text),
  controls: rawControls(text),
  lines: text.split('\n').length,
});

describe('renderExplanation with hostile values in every field', () => {
  // a refuted candidate's evidence shows its first line only: kept the same here, hostile below
  const benign = renderExplanation(everyField('benign', ID, 'first line'));

  for (const h of SAMPLES)
    it(`shows ${JSON.stringify(h).slice(0, 40)} as text inside clearance's lines`, () => {
      const text = renderExplanation(everyField(h, ID, 'first line'));
      expect(asRead(text)).toEqual({ commands: [], controls: [], lines: benign.split('\n').length });
      // clearance's words and lines are as they were; each value is where it was, shown as text
      expect(text.replaceAll(plainText(h), '∎')).toBe(benign.replaceAll('benign', '∎'));
      // ids and shas are clearance's, but even a hostile one cannot act
      const hostileIds = renderExplanation(everyField(h, h));
      expect(asRead(hostileIds)).toEqual(asRead(benign));
      expect(hostileIds).toContain(`(by ${plainText(h)}: ${plainText(h.split('\n')[0] ?? '')})`);
    });

  it('shows the rounds as a table, the trend as advisory, the same-input rounds and each deferred candidate', () => {
    const lines = renderExplanation(everyField('v', ID, 'first line')).split('\n');
    const table = lines.indexOf('rounds:');
    expect(lines.slice(table, table + 5)).toEqual([
      'rounds:',
      '  round  result    new  fixed  withdrawn  reopened  deferred  open  blocking  files  spent',
      '      1  complete    1      1          0         0         0     1         1      1  10 tokens',
      '      2  partial     1      1          0         0         0     1         1      -  -',
      '  (open, blocking: findings open after the round; files: changed since the input reviewed before it)',
    ]);
    expect(lines).toContain(
      'trend: flat (advisory, never the verdict): the blocking findings open neither fell twice nor rose twice over the last two rounds (blocking open: 0 before round 1, 1 after round 1, 1 after round 2)',
    );
    // each same-input round with its reason, the hostile reason encoded for a terminal
    const same = lines.find((l) =>
      l.startsWith('rounds on unchanged input: 1 of 2 allowed; round 2, because '),
    );
    expect(same).toBeDefined();
    expect(hasControl(same ?? '')).toBe(false);
    const deferred = lines.indexOf(
      'Deferred to a follow-up: 2 (kept on the record, never findings, never blocking)',
    );
    expect(lines.slice(deferred + 1)).toEqual([
      '- ffffffffffff [v] v v',
      '    v is admitted until round 2; this came in round 3; proposed by v, v',
      '    evidence: first line',
      '- ffffffffffff [v] v v',
      '    new in round 3, in a file the last fix did not touch; from an anonymous report',
      '    evidence: first line',
    ]);
  });

  it('says nothing of the trend before a round ended, nor of same-input rounds no policy allows', () => {
    const none = {
      ...everyField('v'),
      rounds: [],
      trend: null,
      sameInput: { rounds: 0, allowed: 0, each: [] },
      deferred: [],
    };
    const text = renderExplanation(none);
    expect(text).not.toMatch(/^(rounds|trend|rounds on unchanged input|Deferred)/m);
  });

  it('shows the steps a ruling and a reopening wrote, and an absent reviewer, in their own lines', () => {
    const lines = renderExplanation(everyField('v')).split('\n');
    expect(lines).toContain('    ruled open by v after round 5: v');
    expect(lines).toContain('    round 4 reopened it (it had been fixed): v');
    expect(lines).toContain('round 1 reviewed by v, v; absent: v (missing: v)');
    expect(lines).toContain(
      "ffffffffffff reproduction re-run on round 2's input ffffffffffff: still fails (output ffffffffffff)",
    );
  });
});

describe('explain on runs folded from hostile events', () => {
  for (const h of SAMPLES) {
    it(`a blocked run, a run in progress and a run converged by ruling: ${JSON.stringify(h).slice(0, 30)}`, () => {
      const blocked = blockedRun(h);
      for (const events of [blocked, blocked.slice(0, -1), convergedRun(h), checksRun(h)]) {
        const text = renderExplanation(explain(accepted(events)));
        expect(runnerCommands(text)).toEqual([]);
        expect(rawControls(text)).toEqual([]);
        expect(text).toContain(plainText(h));
      }
      // the blocked run deferred a candidate a reviewer named `h` proposed, and held a same-input capture
      const text = renderExplanation(explain(accepted(blocked)));
      expect(text).toContain(
        'Deferred to a follow-up: 1 (kept on the record, never findings, never blocking)',
      );
      expect(text).toContain(plainText(`proposed by ${h}`));
      expect(text).toContain('rounds on unchanged input: 0 of 1 allowed');
      // the author disputed the finding with reason h, round 2 upheld it with evidence h
      expect(text).toContain(plainText(`disputed for round 2: ${h}; upheld in round 2: ${h.split('\n')[0]}`));
      // the refuted candidate offered again on its untouched file was kept as refuted before
      expect(text).toContain(plainText(`refuted before, dropped again in round 2:`));
      expect(text).toContain(plainText(`on unchanged code; refuted in round 1: ${h.split('\n')[0]})`));
    });
  }

  it('a `--by` name holding a newline cannot write a verdict line of its own', () => {
    const text = renderExplanation(explain(accepted(convergedRun(HOSTILE.forgedRuling))));
    const verdictLines = text.split('\n').filter((line) => line.startsWith('converged by ruling of'));
    expect(verdictLines).toEqual([
      'converged by ruling of Mallory\\nconverged by ruling of Boss after round 9: all good after round 1: Mallory\\nconverged by ruling of Boss after round 9: all good',
    ]);
  });

  it('a plain ASCII run reads exactly as it did', () => {
    const text = renderExplanation(explain(accepted(blockedRun('plain'))));
    expect(text.split('\n').slice(0, 3)).toEqual([
      'blocked at round 3, the cap of 3 rounds: 1 blocking finding is still open, and round 3 ended ci_failed; exhaustion is never convergence',
      // the candidate whose report hashes first keeps its id (and summary)
      expect.stringMatching(/^- [0-9a-f]{12} \[major\] src\/plain\.js:10 plain( again)?$/),
      '    proposed by ada, plain (corroborated 2×)',
    ]);
    expect(text).toContain('round 1 reviewed by ada, plain; absent: plain absent (missing: plain)');
  });
});
