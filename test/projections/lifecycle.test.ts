import { describe, expect, it } from 'vitest';
import {
  costReport,
  explain,
  type Finding,
  findingId,
  findingOf,
  historyOf,
  mayRunStage,
  nextMove,
  PRESETS,
  renderExplanation,
  reproductionsToRun,
  roundRecorded,
  statusOf,
  toArray,
} from '../../src/index.js';
import { outcomeReason } from '../../src/render/outcome-reason.js';
import {
  allStages,
  candidate,
  captured,
  decision,
  ended,
  extended,
  failed,
  finished,
  openedWith,
  report,
  ruled,
  started,
} from '../support/builders.js';
import { fold } from '../support/decider.js';
import { given } from '../support/given.js';

const major = candidate();
const budgeted = { ...PRESETS.default, budget: { tokens: 1000 } };

describe('stages that resume', () => {
  it('after a crash between stages, next resumes at the first stage not finished; a finished plan is kept', () => {
    const events = [
      openedWith(budgeted),
      captured(1, 'A'),
      started(1, 'planning'),
      finished(1, 'planning', { tokens: 100 }),
    ];
    expect(nextMove(fold(events).state)).toMatchObject({
      action: 'run-stage',
      round: 1,
      stage: 'experts',
      attempt: 1,
      resume: false,
    });
    // the driver died with the reviewers' stage running: it runs again
    const crashed = [...events, started(1, 'experts')];
    expect(nextMove(fold(crashed).state)).toMatchObject({
      action: 'run-stage',
      stage: 'experts',
      resume: true,
    });
  });

  it('a failed stage runs again (attempt 2) and the plan before it is never re-run', () => {
    const events = [
      openedWith(budgeted),
      captured(1, 'A'),
      started(1, 'planning'),
      finished(1, 'planning'),
      started(1, 'experts'),
      failed(1, 'experts'),
    ];
    const { state } = fold(events);
    expect(state.stages).toEqual({ finished: ['planning'], running: null, failures: { experts: 1 } });
    expect(nextMove(state)).toMatchObject({
      action: 'run-stage',
      stage: 'experts',
      attempt: 2,
      why: expect.stringMatching(/kept: planning/),
    });
    given(...events)
      .whenEvent(started(1, 'planning'))
      .rejects('stage-repeated');
    expect(
      given(...events)
        .whenEvent(started(1, 'experts'))
        .accepts().stages.running,
    ).toBe('experts');
  });

  it('next walks a whole round: capture, each stage, the report, then stop', () => {
    const steps = [openedWith(budgeted)];
    expect(nextMove(fold(steps).state).action).toBe('capture');
    const staged = [...steps, captured(1, 'A'), ...allStages(1, 10)];
    expect(nextMove(fold(staged).state)).toMatchObject({
      action: 'wait-report',
      round: 1,
      result: 'complete',
    });
    const done = [...staged, roundRecorded(report(1, 'A'))];
    expect(nextMove(fold(done).state)).toMatchObject({ action: 'stop', status: 'converged' });
  });

  it('another push starts the round over: stages of the old input are not kept', () => {
    const events = [
      openedWith(budgeted),
      captured(1, 'A'),
      started(1, 'planning'),
      finished(1, 'planning'),
      captured(1, 'B'),
    ];
    expect(fold(events).state.stages.finished).toEqual([]);
  });
});

describe('budgets', () => {
  it('budget exhaustion ends the round partial, and a partial round never converges', () => {
    const events = [
      openedWith(budgeted),
      captured(1, 'A'),
      started(1, 'planning'),
      finished(1, 'planning', { tokens: 1000 }),
    ];
    const { state } = fold(events);
    expect(nextMove(state)).toMatchObject({
      action: 'end-partial',
      round: 1,
      why: expect.stringMatching(/budget is spent/),
    });
    expect(mayRunStage(state, 'experts', { tokens: 1 })).toMatchObject({
      allowed: false,
      rejection: { code: 'over-budget' },
    });
    given(...events)
      .whenReport(report(1, 'A'))
      .rejects('stages-unfinished');
    // nothing blocks, yet the review was not complete: open, not converged
    const partial = given(...events)
      .whenReport(report(1, 'A'), { result: 'partial' })
      .accepts();
    expect(partial.status).toBe('open');
    expect(toArray(partial.outcomes)).toEqual([
      {
        round: 1,
        result: 'partial',
        reason: null,
        reportSha: expect.any(String),
        tally: expect.objectContaining({ opened: 0, blockingOpen: 0 }),
      },
    ]);
    expect(toArray(partial.outcomes).map(outcomeReason)).toEqual(['recorded as partial']);
  });

  it('may answers from the rules without writing: order, consent and budget', () => {
    const { state } = fold([openedWith(budgeted, ['npm test']), captured(1, 'A')]);
    expect(mayRunStage(state, 'planning', { tokens: 900 })).toMatchObject({ allowed: true, rejection: null });
    expect(mayRunStage(state, 'planning', { tokens: 1001 }).rejection?.code).toBe('over-budget');
    expect(mayRunStage(state, 'verify').rejection?.code).toBe('stage-out-of-order');
    expect(mayRunStage(state, 'planning', {}, ['rm -rf /']).rejection?.code).toBe('no-consent');
    expect(mayRunStage(state, 'planning', {}, ['npm test']).allowed).toBe(true);
  });

  it('cost sums what was spent per round and stage, and by whom, failed attempts included', () => {
    const events = [
      openedWith(budgeted),
      captured(1, 'A'),
      started(1, 'planning'),
      failed(1, 'planning', 'timeout', { tokens: 50 }),
      started(1, 'planning'),
      finished(1, 'planning', { tokens: 200, usd: 0.5 }),
    ];
    const cost = costReport(fold(events).state);
    expect(cost.spent).toEqual({ tokens: 250, usd: 0.5 });
    expect(cost.remaining).toEqual({ tokens: 750 });
    expect(cost.byRound).toEqual([
      {
        round: 1,
        spent: { tokens: 250, usd: 0.5 },
        stages: [
          expect.objectContaining({ outcome: 'failed' }),
          expect.objectContaining({ outcome: 'finished' }),
        ],
      },
    ]);
    expect(cost.byRunner).toEqual([{ runner: 'planning-agent', spent: { tokens: 250, usd: 0.5 } }]);
  });
});

describe('results that tell the truth', () => {
  it('none and ci_failed carry their reason, count toward the cap, and carry findings forward', () => {
    const events = [
      openedWith({ ...PRESETS.default, maxRounds: 3 }),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] })),
      captured(2, 'B'),
      ended(2, 'ci_failed', 'npm test: 3 failures in test/service.test.js'),
      ended(3, 'none', 'the diff was empty'),
    ];
    const { state, trail } = fold(events);
    expect(trail.map((t) => t.rejection)).toEqual(events.map(() => null));
    expect(toArray(state.outcomes).map((o) => [o.round, o.result, o.reason])).toEqual([
      [1, 'complete', null],
      [2, 'ci_failed', 'npm test: 3 failures in test/service.test.js'],
      [3, 'none', 'the diff was empty'],
    ]);
    expect(state.status).toBe('blocked');
    expect(historyOf(state, findingOf(state, findingId(major)) as Finding).map((h) => h.how)).toEqual([
      'opened',
      'carried',
      'carried',
    ]);
    const text = renderExplanation(explain(state));
    expect(text).toContain('round 2 ended ci_failed: npm test: 3 failures in test/service.test.js');
    expect(text).toContain('round 3 ended none: the diff was empty');
    given(openedWith(PRESETS.default))
      .whenEvent(ended(1, 'none', ' '))
      .rejects('empty-field', /must say why/);
  });

  it('reproductions lists what a re-review re-runs: open findings, and ones just fixed', () => {
    const repro = { command: 'npm test -- service', expected: 'the leak test fails' };
    const other = candidate({
      file: 'src/db.js',
      summary: 'Unbounded retry',
      reproduction: { command: 'node retry.js', expected: 'loops' },
    });
    const events = [
      openedWith(PRESETS.default),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [{ ...major, reproduction: repro }, other] })),
      captured(2, 'B', { touched: ['src/db.js'] }),
      roundRecorded(report(2, 'B', { decisions: [decision(other, 'fixed')] })),
    ];
    expect(reproductionsToRun(fold(events).state).map((r) => [r.status, r.command])).toEqual([
      ['open', 'npm test -- service'],
      ['fixed', 'node retry.js'],
    ]);
  });
});

describe('rulings only a person makes', () => {
  const blocked = [
    openedWith({ ...PRESETS.default, maxRounds: 1 }),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { candidates: [major] })),
  ];

  it('a ruling on the last blocking finding of a blocked run converges it, by ruling of that person', () => {
    const state = given(...blocked)
      .whenEvent(ruled(findingId(major), 'withdrawn', 'the pool closes the handle', 'Ada Lovelace'))
      .accepts();
    expect(state.status).toBe('converged');
    expect(state.convergedBy).toEqual({ by: 'Ada Lovelace', why: 'the pool closes the handle' });
    expect(toArray(state.rulings)).toEqual([
      {
        round: 1,
        findingId: findingId(major),
        status: 'withdrawn',
        why: 'the pool closes the handle',
        by: 'Ada Lovelace',
      },
    ]);
    const e = explain(state);
    expect(e.headline).toBe('converged by ruling of Ada Lovelace after round 1: the pool closes the handle');
    expect(renderExplanation(e)).toContain(
      `${findingId(major).slice(0, 12)} ruled withdrawn by Ada Lovelace after round 1`,
    );
    expect(nextMove(state)).toMatchObject({ action: 'stop', why: 'converged by ruling of Ada Lovelace' });
  });

  it('an extension reopens a blocked run until its new cap, on the record', () => {
    const state = given(...blocked)
      .whenEvent(extended(2, 'the fix landed late', 'Grace Hopper'))
      .accepts();
    expect(state.status).toBe('open');
    expect(state.extraRounds).toBe(2);
    expect(renderExplanation(explain(state))).toContain(
      'extended by 2 round(s) by Grace Hopper after round 1: the fix landed late',
    );
    expect(nextMove(state)).toMatchObject({ action: 'capture', round: 2 });
  });

  it('a blocked run whose last round was partial is not converged by a ruling: only a complete review converges', () => {
    const partial = [
      openedWith({ ...PRESETS.default, maxRounds: 1 }),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] }), { result: 'partial' }),
    ];
    const state = given(...partial)
      .whenEvent(ruled(findingId(major), 'fixed'))
      .accepts();
    expect(state.status).toBe('blocked');
    expect(findingOf(state, findingId(major))?.status).toBe('fixed');
  });
});

describe('the standard preset', () => {
  it('only a bug, a vulnerability or a regression blocks; suggestions and nitpicks never do', () => {
    const offered = [
      candidate({ category: 'bug', severity: 'issue', summary: 'off by one' }),
      candidate({ category: 'style', severity: 'issue', summary: 'long function' }),
      candidate({ category: 'vulnerability', severity: 'suggestion', summary: 'escape the query' }),
      candidate({
        category: 'design',
        severity: 'nitpick',
        summary: 'split the module',
        principle: 'single responsibility',
      }),
    ];
    const state = given(openedWith(PRESETS.standard), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: offered }))
      .accepts();
    expect(offered.map((c) => findingOf(state, findingId(c))?.blocking)).toEqual([true, false, false, false]);
    expect(state.status).toBe('open');
    expect(findingOf(state, findingId(offered[3] ?? major))?.principle).toBe('single responsibility');
  });
});

describe('the lifecycle of a round in the status view', () => {
  it('queued once its input is captured, running once a stage started, done with its result', () => {
    const opened = [openedWith(budgeted)];
    expect(statusOf(fold(opened).state).inProgress).toBeNull();
    const queued = [...opened, captured(1, 'A')];
    expect(statusOf(fold(queued).state).inProgress).toEqual({
      round: 1,
      phase: 'queued',
      finished: [],
      running: null,
    });
    const running = [
      ...queued,
      started(1, 'planning'),
      finished(1, 'planning', { tokens: 5 }),
      started(1, 'experts'),
    ];
    expect(statusOf(fold(running).state)).toMatchObject({
      inProgress: { round: 1, phase: 'running', finished: ['planning'], running: 'experts' },
      spent: { tokens: 5 },
    });
    const done = [...queued, ...allStages(1), roundRecorded(report(1, 'A'))];
    expect(statusOf(fold(done).state)).toMatchObject({
      inProgress: null,
      rounds: [{ round: 1, result: 'complete', reason: null }],
    });
  });
});
