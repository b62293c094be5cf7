import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type Command,
  type CommandKind,
  createDecider,
  type DomainEvent,
  initialState,
  type RunState,
} from '../../src/fold.js';
import { buildEvents } from '../../src/projections/decider.js';
import { candidate, captured, idOf, opened, RUN, report, sha } from '../support/builders.js';
import { decider, evolveAll } from '../support/decider.js';

const folded = (events: ReadonlyArray<DomainEvent>): RunState => {
  const state = evolveAll(initialState, events);
  if (E.isLeft(state)) throw new Error(state.left.message);
  return state.right;
};

const decided = (command: Command, state: RunState): ReadonlyArray<DomainEvent> => {
  const events = buildEvents(command, state);
  if (E.isLeft(events)) throw new Error(`${command.kind} refused: ${events.left.message}`);
  return events.right;
};

const major = candidate();
const round1 = [opened(), captured(1, 'A')];
// round 1 recorded with one open finding, round 2's input captured
const inRound2 = folded([
  ...round1,
  ...decided({ kind: 'record', report: report(1, sha('A'), { candidates: [major] }) }, folded(round1)),
  captured(2, 'B', { touched: [major.file] }),
]);

const dataOf = (event: DomainEvent | undefined): Record<string, unknown> =>
  (event?.data ?? {}) as Record<string, unknown>;

// one command of each kind, and the event types it becomes: the Record's type makes a new kind fail here
const EVERY_KIND: Readonly<Record<CommandKind, readonly [Command, ReadonlyArray<string>]>> = {
  open: [
    { kind: 'open', opened: opened().data, capture: captured(1, 'A').data },
    ['run.opened', 'revision.captured'],
  ],
  capture: [
    { kind: 'capture', capture: { inputSha: sha('C'), touchedFiles: [], renames: [] } },
    ['revision.captured'],
  ],
  record: [{ kind: 'record', report: report(2, sha('B')) }, ['round.recorded']],
  contribute: [
    { kind: 'contribute', report: report(2, sha('B')), reviewer: 'ada' },
    ['contribution.recorded'],
  ],
  absent: [
    { kind: 'absent', missing: [{ reviewer: 'bob', reason: 'missing', detail: 'silent' }] },
    ['contribution.absent'],
  ],
  merge: [{ kind: 'merge' }, []],
  'fail-round': [{ kind: 'fail-round', runId: RUN, reason: 'timeout', detail: 'waited' }, ['round.failed']],
  'record-checks': [
    { kind: 'record-checks', checks: [{ name: 'test', state: 'passed' }] },
    ['checks.recorded'],
  ],
  'start-stage': [{ kind: 'start-stage', stage: { stage: 'planning' } }, ['stage.started']],
  'finish-stage': [
    { kind: 'finish-stage', stage: { stage: 'planning', outputSha: sha('0'), runner: 'r' } },
    ['stage.finished'],
  ],
  'fail-stage': [
    { kind: 'fail-stage', stage: { stage: 'planning', reason: 'crashed', runner: 'r' } },
    ['stage.failed'],
  ],
  'end-round': [{ kind: 'end-round', end: { result: 'none', reason: 'nothing to review' } }, ['round.ended']],
  rule: [
    {
      kind: 'rule',
      ruling: { finding: idOf(major).slice(0, 8), status: 'withdrawn', why: 'moot', by: 'Ada' },
    },
    ['finding.ruled'],
  ],
  extend: [{ kind: 'extend', extension: { rounds: 1, why: 'more', by: 'Ada' } }, ['rounds.extended']],
  reproduce: [
    { kind: 'reproduce', finding: idOf(major).slice(0, 8), outcome: 'still-fails' },
    ['reproduction.recorded'],
  ],
  dispute: [
    { kind: 'dispute', finding: idOf(major).slice(0, 8), reason: 'the pool closes the handle' },
    ['finding.disputed'],
  ],
};

describe('buildEvents: every command becomes its events in one place', () => {
  it('builds each kind of command into its events', () => {
    for (const [kind, [command, types]] of Object.entries(EVERY_KIND)) {
      if (kind === 'merge') continue; // refused before any event: below
      expect(
        decided(command, kind === 'open' ? initialState : inRound2).map((e) => e.type),
        kind,
      ).toEqual(types);
    }
  });

  it('takes every round from the state: the run next round, never the caller', () => {
    for (const [kind, [command]] of Object.entries(EVERY_KIND)) {
      if (kind === 'open' || kind === 'merge') continue;
      for (const event of decided(command, inRound2)) {
        const { round } = dataOf(event);
        if (round !== undefined) expect(round, kind).toBe(inRound2.round + 1);
      }
    }
    expect(inRound2.round + 1).toBe(2);
  });

  it('keeps the bytes each command wrote before: the key order of the data', () => {
    // a capture's round comes after its fields, as an explicitly named capture (operations/capture.ts) spreads them
    expect(Object.keys(dataOf(decided(EVERY_KIND.capture[0], inRound2)[0]))).toEqual([
      'inputSha',
      'touchedFiles',
      'renames',
      'round',
    ]);
    // a failed wait's line has always carried the run id first, though its schema has no such field
    expect(Object.keys(dataOf(decided(EVERY_KIND['fail-round'][0], inRound2)[0]))).toEqual([
      'runId',
      'round',
      'inputSha',
      'reason',
      'detail',
    ]);
    expect(dataOf(decided(EVERY_KIND['finish-stage'][0], inRound2)[0])).toEqual({
      round: 2,
      stage: 'planning',
      outputSha: sha('0'),
      cost: {},
      runner: 'r',
    });
  });

  it('names a finding by its full id, from a unique prefix', () => {
    expect(dataOf(decided(EVERY_KIND.rule[0], inRound2)[0]).findingId).toBe(idOf(major));
    expect(dataOf(decided(EVERY_KIND.reproduce[0], inRound2)[0]).findingId).toBe(idOf(major));
    expect(dataOf(decided(EVERY_KIND.dispute[0], inRound2)[0]).findingId).toBe(idOf(major));
  });

  it('refuses a merge with nothing to merge before any event exists', () => {
    const refused = buildEvents({ kind: 'merge' }, inRound2);
    expect(E.isLeft(refused) && refused.left.code).toBe('no-contributions');
  });

  it('builds, and evolve checks: decide refuses what evolve refuses, with the state untouched', () => {
    const before = structuredClone(inRound2);
    const refused = decider.decide({ kind: 'end-round', end: { result: 'none', reason: ' ' } }, inRound2);
    expect(E.isLeft(refused) && refused.left.code).toBe('empty-field');
    const ended = decider.decide({ kind: 'end-round', end: { result: 'none', reason: 'nothing' } }, inRound2);
    expect(E.isRight(ended) && ended.right.map((e) => e.type)).toEqual(['round.ended']);
    expect(inRound2).toEqual(before);
  });
});

describe('the decider value: { initialState, decide, evolve }', () => {
  it('is three members, no more, and folds a run with its own evolve', () => {
    const made = createDecider();
    expect(Object.keys(made).sort()).toEqual(['decide', 'evolve', 'initialState']);
    expect(made.initialState).toBe(initialState);
    const events = [...round1];
    const state = events.reduce<RunState>((s, e) => {
      const next = made.evolve(s, e);
      if (E.isLeft(next)) throw new Error(next.left.message);
      return next.right;
    }, made.initialState);
    expect(state.status).toBe('open');
  });

  it('decides a retry of what is already on the record as no event at all', () => {
    // the capture waiting for round 2, offered again (a driver that crashed after it landed)
    const again: Command = {
      kind: 'capture',
      capture: { inputSha: sha('B'), touchedFiles: [major.file], renames: [] },
    };
    expect(decider.decide(again, inRound2)).toEqual(E.right([]));
    const other: Command = {
      kind: 'capture',
      capture: { inputSha: sha('C'), touchedFiles: [], renames: [] },
    };
    expect(E.isRight(decider.decide(other, inRound2))).toBe(true);
  });

  it('names the next step of a refusal as data, never as a command line', () => {
    const refused = decider.decide({ kind: 'record', report: report(1, sha('A')) }, folded([opened()]));
    expect(E.isLeft(refused) && refused.left).toMatchObject({
      code: 'no-revision',
      next: { action: 'capture', runId: RUN },
    });
    expect(E.isLeft(refused) && refused.left.message).not.toMatch(/clearance |--/);
  });
});
