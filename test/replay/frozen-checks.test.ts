import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { feedbackMarkdown, gateOf, nextMove, toArray } from '../../src/index.js';
import { outcomeReason } from '../../src/render/outcome-reason.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { fold, notedTrail } from '../support/decider.js';

/**
 * The frozen v8 log (test/fixtures/v8) folds to the CI checks it recorded and to the round they
 * ended. Its `*.verdict.json` shows neither the checks nor the trail, so this asserts them.
 */
const V8 = new URL('../fixtures/v8/', import.meta.url).pathname;
const RUN = 'v8-required-checks';
const FAILED_LOG = 'https://github.com/o/r/actions/runs/102/job/1';
const sha = (label: string) => label.padEnd(40, '0');

const folded = () => {
  const parsed = parseLog(
    readFileSync(`${V8}${RUN}.jsonl`),
    parseHead(readFileSync(`${V8}${RUN}.head`, 'utf8')),
  );
  return { ...fold(parsed.events), trail: notedTrail(parsed.events) };
};

describe('frozen v8 log: required CI checks', () => {
  it('keeps the checks last recorded, on the input round 3 reviewed, and the gate approves on them', () => {
    const { state } = folded();
    expect(state.checks).toEqual({
      round: 3,
      inputSha: sha('k3'),
      checks: [
        { name: 'test', state: 'passed' },
        { name: 'lint', state: 'passed' },
        { name: 'docs', state: 'passed' },
      ],
    });
    expect([state.status, state.reviewed?.inputSha]).toEqual(['converged', sha('k3')]);
    expect(nextMove(state)).toMatchObject({ action: 'stop', status: 'converged' });
    // the capture names no commit or artifact: the gate gets as far as the bytes, past the checks
    expect(gateOf(state, {})).toMatchObject({ approved: false, reason: 'unverifiable' });
    expect(gateOf({ ...state, checks: null }, {})).toMatchObject({ reason: 'checks-not-passed' });
  });

  it('round 2 ended ci_failed for its failed required check, named with its link', () => {
    const { state, trail } = folded();
    expect(toArray(state.outcomes).map((o) => [o.round, o.result, outcomeReason(o)])).toEqual([
      [1, 'complete', null],
      [2, 'ci_failed', `required check test (${FAILED_LOG}) failed`],
      [3, 'complete', null],
    ]);
    const checks = trail.filter((t) => t.type === 'checks.recorded');
    expect(checks.map((t) => [t.seq, t.round, t.note])).toEqual([
      [3, 1, `checks on ${sha('k1').slice(0, 12)}: test passed, lint skipped, docs failed (optional: noted)`],
      [
        6,
        2,
        `checks on ${sha('k2').slice(0, 12)}: test failed, lint passed; round ended ci_failed: required check test (${FAILED_LOG}) failed`,
      ],
      [8, 3, `checks on ${sha('k3').slice(0, 12)}: test passed, lint passed, docs passed`],
    ]);
    // the refused report before round 1's checks and the second, identical record of round 2 left no line
    expect(trail.map((t) => t.type)).toEqual([
      'run.opened',
      'revision.captured',
      'checks.recorded',
      'round.recorded',
      'revision.captured',
      'checks.recorded',
      'revision.captured',
      'checks.recorded',
      'round.recorded',
    ]);
  });

  it("round 2's feedback was its diagnosis", () => {
    const { events } = parseLog(
      readFileSync(`${V8}${RUN}.jsonl`),
      parseHead(readFileSync(`${V8}${RUN}.head`, 'utf8')),
    );
    const afterRound2 = fold(events.filter((e) => e.seq <= 6)).state;
    expect(feedbackMarkdown(afterRound2, 'the log')).toContain(
      'Round 2 ended without a review because CI failed: `required check test',
    );
  });
});
