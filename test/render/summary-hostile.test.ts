import { describe, expect, it } from 'vitest';
import { costReport, explain, type RunState, statusOf } from '../../src/fold.js';
import { type GateLine, stepSummary } from '../../src/render/summary.js';
import { markdownText } from '../../src/text/untrusted.js';
import { ALL_HOSTILE, HOSTILE_STRINGS, rawControls, runnerCommands } from '../support/actions-runner.js';
import { accepted, blockedRun, checksRun, convergedRun, deferredWith } from './hostile-runs.js';
import { ACTIVE_MARKDOWN, headingsOf, markdownShape } from './markdown-shape.js';

/**
 * The GitHub step summary is Markdown that GitHub renders on the run's page, written by a step
 * whose log the runner reads too. A value from the log is one run of text in its line or its
 * table cell: no command, no control, no link, no HTML, no cell of its own.
 */

const summaryOf = (state: RunState, gate?: GateLine): string =>
  stepSummary({
    status: statusOf(state),
    explanation: explain(state),
    cost: costReport(state),
    ...(gate === undefined ? {} : { gate }),
  });

const runs = {
  blocked: blockedRun,
  'in progress': (h: string) => blockedRun(h).slice(0, -1),
  'converged by ruling': convergedRun,
  'ended by a failed required check': checksRun,
};

describe('the step summary of runs folded from hostile events', () => {
  for (const h of [...HOSTILE_STRINGS, ALL_HOSTILE])
    for (const [name, run] of Object.entries(runs))
      it(`${name}: ${JSON.stringify(h).slice(0, 40)}`, () => {
        const refused = { approved: false, message: h, reason: h };
        const md = summaryOf(accepted(run(h)), refused);
        const benign = summaryOf(accepted(run('benign')), { approved: false, message: 'm', reason: 'r' });
        expect(runnerCommands(md)).toEqual([]);
        expect(rawControls(md)).toEqual([]);
        expect(markdownShape(md).filter((t) => ACTIVE_MARKDOWN.includes(t))).toEqual([]);
        // the same headings, paragraphs, table rows and cells as the same run with plain values
        expect(markdownShape(md)).toEqual(markdownShape(benign));
        expect(headingsOf(md).slice(1)).toEqual(headingsOf(benign).slice(1));
        expect(md).toContain(markdownText(h));
      });

  for (const h of [...HOSTILE_STRINGS, ALL_HOSTILE])
    it(`deferred candidates with hostile values in every field: ${JSON.stringify(h).slice(0, 40)}`, () => {
      const withDeferred = (x: string) => {
        const state = accepted(blockedRun('plain'));
        const explanation = explain(state);
        return stepSummary({
          status: statusOf(state),
          explanation: {
            ...explanation,
            deferred: [deferredWith(x, 'f'.repeat(64)), deferredWith(x, 'e'.repeat(64), 'outside-fix')],
          },
          cost: costReport(state),
        });
      };
      const md = withDeferred(h);
      const benign = withDeferred('benign');
      expect(runnerCommands(md)).toEqual([]);
      expect(rawControls(md)).toEqual([]);
      expect(markdownShape(md).filter((t) => ACTIVE_MARKDOWN.includes(t))).toEqual([]);
      // each value stays in its cell: the same rows and cells as with a plain value
      expect(markdownShape(md)).toEqual(markdownShape(benign));
      expect(md.replaceAll(markdownText(h), '∎')).toBe(benign.replaceAll('benign', '∎'));
    });

  it('a plain ASCII run reads as it did', () => {
    const md = summaryOf(accepted(blockedRun('plain')));
    expect(md).toContain('## clearance: run\\-1 is blocked');
    expect(md).toMatch(
      /\| `[0-9a-f]{12}` \| major \| src\\\/plain\\\.js\\:10 \| plain( again)? \| 3 round\(s\) \|/,
    );
    expect(md).toContain('| 3 | ci\\_failed | 0 | 0 | 0 | 0 | 0 | 1 | 1 | 0 | \\- | plain |');
    expect(md).toContain('| 2 | complete | 0 | 0 | 0 | 0 | 1 | 2 | 2 | 1 | \\- |  |');
    expect(md).toContain('rounds on unchanged input\\: 0 of 1 allowed');
    // the deferred minor: where, what, and why, in a row of its own
    expect(md).toContain('### Deferred to a follow-up: 1');
    expect(md).toMatch(
      /\| `[0-9a-f]{12}` \| minor \| src\\\/plain\\\.js\\:50 \| plain deferred \| minor is admitted until round 1; this came in round 2 \|/,
    );
  });
});
