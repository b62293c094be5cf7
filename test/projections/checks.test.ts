import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  contributionRecorded,
  type DomainEvent,
  feedbackMarkdown,
  gateOf,
  nextMove,
  type Policy,
  PRESETS,
  parsePolicy,
  type RunState,
  roundRecorded,
  toArray,
} from '../../src/index.js';
import { alreadyRecorded } from '../../src/projections/rules/retry.js';
import { outcomeReason } from '../../src/render/outcome-reason.js';
import {
  CHECKED_POLICY,
  candidate,
  captured,
  checked,
  finished,
  idOf,
  opened,
  report,
  reproduced,
  sha,
  started,
} from '../support/builders.js';
import { evolve, fold, notedTrail } from '../support/decider.js';
import { given } from '../support/given.js';

const reasonsOf = (state: RunState) => toArray(state.outcomes).map(outcomeReason);

const URL1 = 'https://github.com/o/r/actions/runs/1/job/11';
const passed = [
  { name: 'test', state: 'passed', url: URL1 },
  { name: 'lint', state: 'passed' },
] as const;
const waiting = [opened(CHECKED_POLICY), captured(1, 'A')];
const major = candidate();

describe('a policy names its CI checks', () => {
  const withChecks = (checks: unknown) => parsePolicy({ ...CHECKED_POLICY, checks });
  const refusal = (checks: unknown) => {
    const parsed = withChecks(checks);
    return E.isLeft(parsed) ? `${parsed.left.code}: ${parsed.left.message}` : 'accepted';
  };

  it('required, optional and expectedSkips: distinct one-line names, each check required or optional', () => {
    expect(refusal({ required: ['test'], optional: ['docs'], expectedSkips: ['docs'] })).toBe('accepted');
    expect(refusal({ required: ['test', 'test'] })).toMatch(
      /^invalid-policy: policy.checks.required must be distinct/,
    );
    expect(refusal({ required: [' '] })).toMatch(/^invalid-policy: policy.checks.required/);
    expect(refusal({ required: ['te\nst'] })).toMatch(/^invalid-policy: policy.checks.required .*one-line/);
    expect(refusal({ optional: ['a\u202eb'] })).toMatch(/^invalid-policy: policy.checks.optional/);
    expect(refusal({ required: ['test'], optional: ['test'] })).toMatch(
      /^invalid-policy: policy.checks.optional must be names not also required .*got \["test"\]/,
    );
    expect(refusal({ required: ['test'], expectedSkips: ['lint'] })).toMatch(
      /^invalid-policy: policy.checks.expectedSkips must be distinct names of required or optional checks/,
    );
  });

  it('optional and expectedSkips default to none in a policy file; a misspelt key is refused', () => {
    const parsed = withChecks({ required: ['test'] });
    expect(E.isRight(parsed) && parsed.right.checks).toEqual({
      required: ['test'],
      optional: [],
      expectedSkips: [],
    });
    expect(refusal({ required: ['test'], expectedSkip: ['test'] })).toMatch(
      /^invalid-policy: .*expectedSkip/,
    );
  });

  it('a run.opened whose checks break the rules is refused in a log too', () => {
    const bad: Policy = {
      ...CHECKED_POLICY,
      checks: { required: ['test'], optional: [], expectedSkips: ['x'] },
    };
    given()
      .whenEvent(opened(bad))
      .rejects('invalid-policy', /policy\.checks\.expectedSkips/);
  });
});

describe('checks.recorded binds to the round in progress and its captured input', () => {
  it('no-revision before a capture, wrong-round, wrong-input, run-final', () => {
    given(opened(CHECKED_POLICY))
      .whenEvent(checked(1, 'A', passed))
      .rejects('no-revision');
    given(...waiting)
      .whenEvent(checked(2, 'A', passed))
      .rejects('wrong-round');
    given(...waiting)
      .whenEvent(checked(1, 'B', passed))
      .rejects('wrong-input', /not the input captured/);
    const converged = [...waiting, checked(1, 'A', passed), roundRecorded(report(1, 'A'))];
    given(...converged)
      .whenEvent(checked(2, 'A', passed))
      .rejects('run-final');
    given()
      .whenEvent(checked(1, 'A', passed))
      .rejects('not-opened');
  });

  it('every check is named', () => {
    given(...waiting)
      .whenEvent(checked(1, 'A', [...passed, { name: '  ', state: 'passed' }]))
      .rejects('empty-field', /checks\[2\]\.name is empty/);
  });

  it('missing-check: every required check is in the record, unless it may be skipped', () => {
    given(...waiting)
      .whenEvent(checked(1, 'A', [{ name: 'lint', state: 'passed' }]))
      .rejects('missing-check', /test not among the 1 check\(s\)/);
    // lint is an expected skip: a workflow filtered out by paths never reports
    const state = given(...waiting)
      .whenEvent(checked(1, 'A', [{ name: 'test', state: 'passed' }]))
      .accepts();
    expect(state.round).toBe(0);
  });
});

describe('what the checks do to the round', () => {
  it('every required check passed: kept for this input, and the round goes on to its report', () => {
    const state = given(...waiting)
      .whenEvent(checked(1, 'A', passed))
      .accepts();
    expect(state.checks).toEqual({ round: 1, inputSha: sha('A'), checks: passed });
    expect([state.round, state.status, state.capture?.inputSha]).toEqual([0, 'open', sha('A')]);
    expect(toArray(state.outcomes)).toEqual([]);
  });

  it('a required check failed: the round ends ci_failed, its reason naming the check and its link', () => {
    const staged: Policy = { ...CHECKED_POLICY, stages: ['planning', 'experts'] };
    const events = [
      opened(staged),
      captured(1, 'A'),
      started(1, 'planning'),
      finished(1, 'planning'),
      contributionRecorded(report(1, 'A'), 'ada'),
    ];
    const failing = checked(1, 'A', [
      { name: 'test', state: 'failed', url: URL1 },
      { name: 'lint', state: 'passed' },
    ]);
    const state = given(...events)
      .whenEvent(failing)
      .accepts();
    expect(toArray(state.outcomes)).toEqual([
      {
        round: 1,
        result: 'ci_failed',
        // the record keeps which checks failed; every view says it in words (src/render)
        reason: null,
        failedChecks: [{ name: 'test', state: 'failed', url: URL1 }],
        // a round ended by CI changed no finding
        tally: expect.objectContaining({ opened: 0, fixed: 0, deferred: 0 }),
      },
    ]);
    expect(reasonsOf(state)).toEqual([`required check test (${URL1}) failed`]);
    // exactly what round.ended ci_failed does: the round is over, its capture and stages gone
    expect([state.round, state.status, state.capture, state.stages.finished, state.contributions]).toEqual([
      1,
      'open',
      null,
      [],
      [],
    ]);
    const byEnd = evolve(given(...events).state, {
      type: 'round.ended',
      data: { round: 1, result: 'ci_failed', reason: `required check test (${URL1}) failed` },
    });
    const ended = E.isRight(byEnd) ? byEnd.right : null;
    // the same end, the reason said by the event instead of the checks it came from
    expect(ended && { ...ended, checks: state.checks, outcomes: state.outcomes }).toEqual(state);
    expect(ended && reasonsOf(ended)).toEqual(reasonsOf(state));
  });

  it('a required check skipped is ci_failed unless it is an expected skip; each such check is named', () => {
    const skipped = given(...waiting)
      .whenEvent(
        checked(1, 'A', [
          { name: 'test', state: 'skipped' },
          { name: 'lint', state: 'skipped' },
        ]),
      )
      .accepts();
    expect(toArray(skipped.outcomes)).toMatchObject([
      { round: 1, result: 'ci_failed', failedChecks: [{ name: 'test', state: 'skipped' }] },
    ]);
    expect(reasonsOf(skipped)).toEqual(['required check test was skipped, and it is not an expected skip']);
    const bothFail = given(...waiting)
      .whenEvent(
        checked(1, 'A', [
          { name: 'test', state: 'failed', url: URL1 },
          { name: 'lint', state: 'failed' },
        ]),
      )
      .accepts();
    expect(reasonsOf(bothFail)[0]).toBe(`required check test (${URL1}) failed; required check lint failed`);
  });

  it('a failed optional check is noted, never ci_failed; a check the policy does not name is kept', () => {
    const checks = [
      ...passed,
      { name: 'docs', state: 'failed' },
      { name: 'coverage', state: 'failed' },
    ] as const;
    const log = [...waiting, checked(1, 'A', checks)];
    const { state } = fold(log);
    expect([state.round, state.checks?.checks]).toEqual([0, checks]);
    expect(notedTrail(log).at(-1)?.note).toBe(
      `checks on ${sha('A').slice(0, 12)}: test passed, lint passed, docs failed (optional: noted), coverage failed`,
    );
  });

  it('a name CI reports twice is judged by every entry: one passing run never hides a failing one', () => {
    const state = given(...waiting)
      .whenEvent(checked(1, 'A', [...passed, { name: 'test', state: 'failed', url: 'https://ci.example/2' }]))
      .accepts();
    expect(reasonsOf(state)[0]).toBe('required check test (https://ci.example/2) failed');
  });

  it('the trail says the round ended, and why', () => {
    const trail = notedTrail([...waiting, checked(1, 'A', [{ name: 'test', state: 'failed', url: URL1 }])]);
    expect(trail.at(-1)).toMatchObject({
      type: 'checks.recorded',
      round: 1,
      rejection: null,
      note: `checks on ${sha('A').slice(0, 12)}: test failed; round ended ci_failed: required check test (${URL1}) failed`,
    });
  });

  it('the ci_failed reason is the feedback', () => {
    const { state } = fold([...waiting, checked(1, 'A', [{ name: 'test', state: 'failed', url: URL1 }])]);
    expect(feedbackMarkdown(state, 'the log')).toContain(
      'Round 1 ended without a review because CI failed: `required check test (https://github.com/o/r/actions/runs/1/job/11) failed`.',
    );
  });

  it('recorded again for the same input while the round is in progress, the latest record stands', () => {
    const again = [
      { name: 'test', state: 'passed', url: 'https://ci.example/rerun' },
      { name: 'lint', state: 'passed' },
    ] as const;
    const state = given(...waiting, checked(1, 'A', passed))
      .whenEvent(checked(1, 'A', again))
      .accepts();
    expect(state.checks?.checks).toEqual(again);
    const failedNow = given(...waiting, checked(1, 'A', passed))
      .whenEvent(checked(1, 'A', [{ name: 'test', state: 'failed' }]))
      .accepts();
    expect(toArray(failedNow.outcomes)).toMatchObject([{ round: 1, result: 'ci_failed' }]);
    expect(reasonsOf(failedNow)).toEqual(['required check test failed']);
  });

  it('the very record offered again is a retry: already recorded, before and after it ended the round', () => {
    const pass = checked(1, 'A', passed);
    const afterPass = fold([...waiting, pass]).state;
    expect(alreadyRecorded(afterPass, pass)).toBe(true);
    expect(alreadyRecorded(afterPass, checked(1, 'A', [passed[0]]))).toBe(false);
    const fail = checked(1, 'A', [{ name: 'test', state: 'failed' }]);
    const afterFail = fold([...waiting, fail]).state;
    expect(afterFail.round).toBe(1);
    expect(alreadyRecorded(afterFail, fail)).toBe(true);
  });

  it('under a policy without checks, a record is kept and changes nothing else', () => {
    const state = given(opened(), captured(1, 'A'))
      .whenEvent(checked(1, 'A', [{ name: 'test', state: 'failed' }]))
      .accepts();
    expect([state.round, toArray(state.outcomes), state.checks?.checks]).toEqual([
      0,
      [],
      [{ name: 'test', state: 'failed' }],
    ]);
  });
});

describe('a report comes after its checks', () => {
  it('checks-not-recorded: refused until the checks of its input are recorded, then accepted', () => {
    given(...waiting)
      .whenReport(report(1, 'A'))
      .rejects('checks-not-recorded', /record them first, then the report/);
    const state = given(...waiting, checked(1, 'A', passed))
      .whenReport(report(1, 'A'))
      .accepts();
    expect([state.round, state.status]).toEqual([1, 'converged']);
  });

  it('checks of an input since replaced by a new capture do not count for the new one', () => {
    given(...waiting, checked(1, 'A', passed), captured(1, 'B'))
      .whenReport(report(1, 'B'))
      .rejects('checks-not-recorded', new RegExp(`round 1's input ${sha('B')}`));
  });

  it('a report wrong in itself is told that first', () => {
    const round1 = [
      ...waiting,
      checked(1, 'A', passed),
      roundRecorded(report(1, 'A', { candidates: [major] })),
    ];
    given(...round1, captured(2, 'B', { touched: [major.file] }))
      .whenReport(report(2, 'B'))
      .rejects('missing-decision');
  });

  it('a merged round is held to it too; a round that ends without a report is not', () => {
    given(...waiting, contributionRecorded(report(1, 'A'), 'ada'))
      .whenMerged()
      .rejects('checks-not-recorded');
    given(...waiting)
      .whenEvent({ type: 'round.ended', data: { round: 1, result: 'none', reason: 'nothing to review' } })
      .accepts();
  });

  it('a policy without checks records reports as it always did', () => {
    given(opened(), captured(1, 'A')).whenReport(report(1, 'A')).accepts();
    given(
      opened({ ...PRESETS.default, checks: { required: [], optional: ['docs'], expectedSkips: [] } }),
      captured(1, 'A'),
    )
      .whenReport(report(1, 'A'))
      .accepts();
  });
});

describe('next says when the checks are due', () => {
  const repro = candidate({ reproduction: { command: 'npm test', expected: 'fails' } });
  const round1: DomainEvent[] = [
    opened({ ...CHECKED_POLICY, stages: ['planning'] }),
    captured(1, 'A'),
    checked(1, 'A', passed),
    started(1, 'planning'),
    finished(1, 'planning'),
    roundRecorded(report(1, 'A', { candidates: [repro] })),
    captured(2, 'B', { touched: [repro.file] }),
  ];

  it('after a capture and before anything else: the reproductions and the stages wait for CI', () => {
    expect(nextMove(fold(round1).state)).toEqual({
      action: 'record-checks',
      round: 2,
      inputSha: sha('B'),
      required: ['test', 'lint'],
      why: "record the CI checks of round 2's input when they have finished (required: test, lint): a required check that fails ends the round ci_failed, before any review",
    });
    expect(nextMove(fold(round1.slice(0, 2)).state)).toMatchObject({ action: 'record-checks', round: 1 });
  });

  it('goes on once they are recorded for this input, and asks again for a new one', () => {
    const recorded = [...round1, checked(2, 'B', passed)];
    expect(nextMove(fold(recorded).state)).toMatchObject({ action: 'rerun-reproductions' });
    expect(
      nextMove(fold([...recorded, reproduced(2, 'B', idOf(repro), 'no-longer-fails')]).state),
    ).toMatchObject({
      action: 'run-stage',
      stage: 'planning',
    });
    expect(nextMove(fold([...recorded, captured(2, 'C', { touched: [repro.file] })]).state)).toMatchObject({
      action: 'record-checks',
      inputSha: sha('C'),
    });
  });

  it('after a required check failed: capture the fix', () => {
    const failedRound = [...round1, checked(2, 'B', [{ name: 'test', state: 'failed' }])];
    expect(nextMove(fold(failedRound).state)).toMatchObject({ action: 'capture', round: 3 });
  });

  it('never under a policy without required checks', () => {
    expect(nextMove(fold([opened(), captured(1, 'A')]).state)).toMatchObject({ action: 'run-stage' });
  });
});

describe('the gate approves only what every required check passed on', () => {
  const artifact = 'd'.repeat(64);
  const capturedDoc: DomainEvent = {
    type: 'revision.captured',
    data: { round: 1, inputSha: sha('A'), touchedFiles: [], renames: [], artifactSha: artifact },
  };
  const converged = fold([
    opened(CHECKED_POLICY),
    capturedDoc,
    checked(1, 'A', passed),
    roundRecorded(report(1, 'A')),
  ]).state;

  it('approves a converged run whose reviewed input passed its required checks', () => {
    expect(gateOf(converged, { artifactSha: artifact })).toMatchObject({
      approved: true,
      inputSha: sha('A'),
    });
  });

  // The fold never lets a report through before its checks, nor a round past a failed required
  // check: these states are made by hand, to hold the gate to the rule on its own.
  const refusedFor = (state: RunState) => gateOf(state, { artifactSha: artifact });
  it('checks-not-passed: no checks for the reviewed input', () => {
    expect(refusedFor({ ...converged, checks: null })).toEqual({
      approved: false,
      reason: 'checks-not-passed',
      status: 'converged',
      message: `no CI checks were recorded for round 1's input ${sha('A')}: the policy requires test, lint to pass on the input it approves`,
    });
    const otherInput = { ...converged, checks: { round: 1, inputSha: sha('B'), checks: passed } };
    expect(refusedFor(otherInput)).toMatchObject({ approved: false, reason: 'checks-not-passed' });
  });

  it('checks-not-passed: a required check failed or is missing, each named with its link', () => {
    const failing = {
      ...converged,
      checks: {
        round: 1,
        inputSha: sha('A'),
        checks: [{ name: 'test', state: 'failed' as const, url: URL1 }],
      },
    };
    expect(refusedFor(failing)).toMatchObject({
      approved: false,
      reason: 'checks-not-passed',
      message: `the required checks did not all pass on round 1's input ${sha('A')}: required check test (${URL1}) failed`,
    });
    const missing = { ...converged, checks: { round: 1, inputSha: sha('A'), checks: [] } };
    expect(refusedFor(missing)).toMatchObject({
      message: expect.stringContaining('required check test was not recorded'),
    });
  });

  it('a policy without checks: the gate knows nothing of them, as before', () => {
    const plain = fold([opened(), capturedDoc, roundRecorded(report(1, 'A'))]).state;
    expect(gateOf(plain, { artifactSha: artifact })).toMatchObject({ approved: true });
  });
});
