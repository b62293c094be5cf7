import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { explain, type Feedback, feedbackMarkdown, renderFeedback } from '../../src/fold.js';
import { markdownLiteral } from '../../src/text/untrusted.js';
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
import { ACTIVE_MARKDOWN, headingsOf, literalShape, markdownShape } from './markdown-shape.js';

/**
 * `clearance feedback` prints Markdown to a terminal (and a CI log) that is handed to an agent as
 * its next brief. Whatever a reviewer or a person put in the log, the runner reads no command in
 * it, the terminal gets no control, and the Markdown keeps the shape clearance gave it: no value
 * opens a link, an image, HTML, emphasis, code or a heading of its own.
 */

const ID = 'f'.repeat(64);

/** Every field the brief shows, `h` in each one that holds text; `status` picks the verdict line. */
const everyField = (h: string, status: Feedback['status'] = 'open', id = ID): Feedback => {
  const finding = {
    id,
    citation: h,
    severity: h,
    summary: h,
    evidence: h,
    roundsOpen: 2,
    reviewers: [h, h],
    mergedIn: 1,
    lastWord: { how: 'decided', round: 3, evidence: h },
    reopenings: 0,
    disputes: [
      { round: 2, reason: h, ruling: { round: 2, status: 'open', evidence: h } },
      { round: 3, reason: h, ruling: { round: 3, status: 'open', evidence: h, by: h } },
      { round: 4, reason: h, ruling: null },
    ],
  } as const;
  return {
    round: 3,
    status,
    cap: 4,
    policyCap: 2,
    convergedBy: status === 'converged' ? { by: h, why: h } : null,
    stall: null,
    blockedReason: null,
    disputes: { allowed: true, blockAfter: 2 },
    pendingDisputes: [disputeWith(h, id, 4, null)],
    ending: { round: 3, result: 'ci_failed', reason: h, tally: TALLY },
    failure: { round: 3, reason: 'timeout', detail: h },
    extensions: [{ round: 2, rounds: 2, why: h, by: h }],
    blocking: [finding, { ...finding, lastWord: { how: 'reopened', round: 3, evidence: h }, reopenings: 2 }],
    advisoryOpen: 1,
    reruns: [{ id, citation: h, round: 3, outcome: 'still-fails', findingStatus: 'open', outputSha: id }],
    pendingReproductions: 1,
    deferred: [deferredWith(h, id), { ...deferredWith(h, id, 'outside-fix'), reviewers: [] }],
  };
};

/** A value as the brief shows it: whitespace runs one space, trimmed, then one Markdown run. */
const shown = (h: string): string => markdownLiteral(h.replace(/\s+/g, ' '));

const SAMPLES = [...HOSTILE_STRINGS, ALL_HOSTILE];

describe('renderFeedback with hostile values in every field', () => {
  for (const status of ['open', 'converged'] as const) {
    const benign = renderFeedback(everyField('benign', status), 'the log');
    for (const h of SAMPLES)
      it(`${status}: shows ${JSON.stringify(h).slice(0, 40)} as one run of text`, () => {
        const md = renderFeedback(everyField(h, status), 'the log');
        expect(runnerCommands(md)).toEqual([]);
        expect(rawControls(md)).toEqual([]);
        // clearance's words, lines and Markdown are as they were; each value is where it was
        expect(md.replaceAll(shown(h), '∎')).toBe(benign.replaceAll('benign', '∎'));
        expect(literalShape(md)).toEqual(literalShape(benign));
        const hostileIds = renderFeedback(everyField(h, status, h), 'the log');
        expect([runnerCommands(hostileIds), rawControls(hostileIds)]).toEqual([[], []]);
      });
  }
});

describe('feedback on runs folded from hostile events', () => {
  const benign = (run: (h: string) => ReturnType<typeof blockedRun>) =>
    feedbackMarkdown(accepted(run('benign')), 'r');

  for (const h of SAMPLES)
    it(`a blocked run, a run in progress and a run converged by ruling: ${JSON.stringify(h).slice(0, 30)}`, () => {
      const inProgress = (x: string) => blockedRun(x).slice(0, -1);
      for (const run of [blockedRun, inProgress, convergedRun, checksRun]) {
        const md = feedbackMarkdown(accepted(run(h)), 'r');
        expect(runnerCommands(md)).toEqual([]);
        expect(rawControls(md)).toEqual([]);
        expect(markdownShape(md).filter((t) => ACTIVE_MARKDOWN.includes(t))).toEqual([]);
        expect(headingsOf(md)).toEqual(headingsOf(benign(run)));
        expect(md.split('\n')).toHaveLength(benign(run).split('\n').length);
        expect(md).toContain(shown(h));
      }
    });

  it('lists the deferred candidate under its own heading, with why and who proposed it', () => {
    const md = feedbackMarkdown(accepted(blockedRun('plain')), 'r');
    expect(headingsOf(md)).toContain('Deferred to a follow-up');
    const lines = md.split('\n');
    const at = lines.indexOf('### Deferred to a follow-up');
    expect(lines.slice(at + 1, at + 7)).toEqual([
      '',
      "1 candidate the policy does not admit to this loop is kept on the record for a follow-up: not this loop's to fix, and no decision is needed for it.",
      '',
      expect.stringMatching(/^- `[0-9a-f]{12}` \*\*src\/plain\.js:50\*\* \(minor\): plain deferred$/),
      '  - Why: minor is admitted until round 1; this came in round 2',
      '  - Seen by: plain',
    ]);
    // a run that deferred nothing says nothing of it
    expect(feedbackMarkdown(accepted(convergedRun('plain')), 'r')).not.toContain('Deferred');
  });

  it('a `--by` name holding a newline stays inside the verdict sentence', () => {
    const md = feedbackMarkdown(accepted(convergedRun(HOSTILE.forgedRuling)), 'r');
    expect(md.split('\n').filter((line) => line.includes('converged by ruling'))).toEqual([
      `The review converged by ruling of ${shown(HOSTILE.forgedRuling)}: ${shown(HOSTILE.forgedRuling)}.`,
    ]);
    expect(explain(accepted(convergedRun('Ada'))).convergedBy).toBe('Ada');
  });

  it('a plain ASCII run reads as it did', () => {
    const md = feedbackMarkdown(accepted(blockedRun('plain')), 'r');
    expect(md).toContain("The cap is 3 rounds: the policy's 2, extended 1 by plain (plain).");
    expect(md).toContain('Round 3 ended without a review because CI failed: plain. Fix that first.');
    expect(md).toMatch(
      /- `[0-9a-f]{12}` \*\*src\/plain\.js:10\*\* \(major, open 3 rounds\): plain( again)?\n/,
    );
    expect(md).toContain('  - Seen by: ada, plain (1 candidate(s) merged in)');
    expect(md).toContain('  - Disputed for round 2: plain; upheld in round 2: plain');
  });

  it('a run in progress with a dispute waiting: the author hears how to dispute, the reviewers what to rule on', () => {
    const events = blockedRun('plain');
    const round2 = events.findIndex((e) => e.type === 'round.recorded' && e.data.round === 2);
    const md = feedbackMarkdown(accepted(events.slice(0, round2 - 1)), 'r');
    expect(md).toContain(
      'If you believe a finding is wrong and change nothing for it, dispute it (`dispute`',
    );
    expect(headingsOf(md)).toContain('Disputed: round 2 must rule on each');
    expect(md).toContain('its file touched or not: `open` with evidence upholds the finding');
    expect(md).toContain("  - The author's reason: plain");
    expect(md).toContain("  - Disputed for round 2: plain; awaiting the next round's ruling");
  });
});

describe('the brief an agent reads raw', () => {
  const withSummary = (summary: string): string => {
    const fb = everyField('plain');
    const [first] = fb.blocking;
    if (first === undefined) throw new Error('no blocking finding');
    return renderFeedback({ ...fb, blocking: [{ ...first, summary }] }, 'the log');
  };

  it('holds a summary exactly as the reviewer wrote it, with no backslash in it', () => {
    const summary = 'test_foo: expected 3 == 4 (see src/a.js:10)';
    const md = withSummary(summary);
    const line = md.split('\n').find((l) => l.includes('test_foo'));
    expect(line).toContain(summary);
    expect(line).not.toContain('\\');
    // plain words stay plain: only what Markdown would act on is set apart
    expect(withSummary('the handle leaks on abort')).toContain('): the handle leaks on abort');
  });

  for (const hostile of ['[x](http://evil)', '![i](http://evil/p.png)', '<img src=x>', '# heading'])
    it(`renders ${hostile} as inert text in a CommonMark renderer`, () => {
      const md = withSummary(hostile);
      const html = new MarkdownIt('commonmark').render(md);
      expect(html).not.toMatch(/<a |<img|<h1/);
      // the text is shown as it was, escaped only for HTML
      expect(html).toContain(
        hostile.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
      );
      expect(md).not.toContain('\\');
    });
});
