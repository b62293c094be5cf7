import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { citationsRequired } from '../src/events/policy.js';
import {
  type Candidate,
  citationOf,
  contributionRecorded,
  type DomainEvent,
  findingOf,
  findingsInOrder,
  findingsNamed,
  initialState,
  isFinal,
  openBlockingCount,
  openFindingsIn,
  type Policy,
  parseReport,
  type RoundReport,
  type RunState,
  roundRecorded,
  toArray,
} from '../src/index.js';
import { placeOf } from '../src/projections/citation.js';
import { buildEvents } from '../src/projections/decider.js';
import {
  buildRound,
  FILES,
  MUTATIONS,
  type Offer,
  policyArb,
  type RoundChoices,
  RUN_ID,
  roundChoicesArb,
  roundEvents,
} from '../src/testing.js';
import { evolve, step } from '../test/support/decider.js';
import {
  FINDING_RULES,
  type ReferenceRefuted,
  type ReferenceState,
  referenceRefusal,
  referenceStart,
  referenceStep,
} from '../test/support/reference-fold.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

// The indexed fold (a persistent vector of findings, an index by id and by file, the count of open
// blocking findings) against the reference fold of test/support/reference-fold.ts, which scans
// plain records for everything. A slip in the index would let the verdict say converged with a
// blocking finding open, or let a round through without the decision it owes: this is the check.

type Panel = Readonly<{ link: boolean; absent: boolean; place: boolean }>;
/** an invalid offer: drawn from the rules that read findings, or from the whole catalogue */
type Noise = Readonly<{ findingRule: boolean; which: number; pick: number }>;
type Person = 'rule-all' | 'rule-one' | 'extend' | null;
type RoundPlan = Readonly<{
  choices: RoundChoices;
  /** every file touched and every decision open: streaks that stall a run, or reach its cap */
  stubborn: boolean;
  /** a dispute before every round and a refuted candidate offered again in it: the rulings, the counts, the files touched since */
  contrary: boolean;
  panel: Panel | null;
  noise: Noise | null;
  person: Person;
}>;

const roundPlanArb: fc.Arbitrary<RoundPlan> = fc.record({
  choices: roundChoicesArb,
  stubborn: fc.boolean(),
  contrary: fc.boolean(),
  panel: fc.option(fc.record({ link: fc.boolean(), absent: fc.boolean(), place: fc.boolean() }), {
    freq: 2,
  }),
  noise: fc.option(fc.record({ findingRule: fc.boolean(), which: fc.nat(), pick: fc.nat() }), { freq: 2 }),
  person: fc.constantFrom<Person>('rule-all', 'rule-one', 'extend', null),
});

/** A log in the making: every event offered, and the state the fold is at. */
type Log = { events: DomainEvent[]; state: RunState };

const offer = (log: Log, events: ReadonlyArray<DomainEvent>): void => {
  for (const event of events) {
    log.events.push(event);
    log.state = step(log.state, event).state;
  }
};

/** The events `events` would leave, all accepted, or null when the fold refuses one. */
const acceptedAll = (state: RunState, events: ReadonlyArray<DomainEvent>): RunState | null => {
  let current = state;
  for (const event of events) {
    const next = evolve(current, event);
    if (E.isLeft(next)) return null;
    current = next.right;
  }
  return current;
};

const citationsFor = (policy: Policy, report: RoundReport) =>
  citationsRequired(policy)
    ? report.candidates.map((c, i) => ({ candidate: i, citation: citationOf(placeOf(c)), resolved: true }))
    : undefined;

/**
 * The round of `events` closed by a panel instead: the report split between two reviewers (the
 * second perhaps corroborating an open finding the round keeps open), a third perhaps absent, and
 * the round recorded as their merge. Null when that would not be a valid round.
 */
const asPanel = (state: RunState, events: ReadonlyArray<DomainEvent>, panel: Panel): DomainEvent[] | null => {
  const recorded = events.at(-1);
  if (recorded?.type !== 'round.recorded' || state.run === null) return null;
  const before = acceptedAll(state, events.slice(0, -1));
  if (before === null) return null;
  const { verdict: _, ...report } = recorded.data.report;
  const keptOpen = report.decisions.filter((d) => d.status === 'open').map((d) => findingOf(before, d.id));
  const target = panel.link ? keptOpen[0] : undefined;
  const link: Candidate[] =
    target === undefined
      ? []
      : [
          {
            file: target.file,
            ...(target.line === null ? { section: target.section ?? 'Intro' } : { line: target.line }),
            category: target.category,
            summary: `still there: ${target.summary}`,
            severity: target.severity,
            confirmed: true,
            evidence: 'seen again by a second reviewer',
            sameAs: target.id,
          },
        ];
  const ada = { ...report, candidates: report.candidates.filter((_, i) => i % 2 === 0) };
  // the second reviewer, a verifier too, places ada's first candidate seven lines further down
  const placed = panel.place ? ada.candidates.find((c) => c.line !== undefined) : undefined;
  const bob = {
    ...report,
    candidates: [...report.candidates.filter((_, i) => i % 2 === 1), ...link],
    ...(placed === undefined
      ? {}
      : {
          verifications: [
            {
              file: placed.file,
              category: placed.category,
              summary: placed.summary,
              verdict: 'confirmed' as const,
              evidence: 'checked',
              correction: { line: (placed.line ?? 1) + 7, evidence: 'it is down here' },
            },
          ],
        }),
  };
  const handedIn: DomainEvent[] = [contributionRecorded(ada, 'ada'), contributionRecorded(bob, 'bob')];
  if (panel.absent)
    handedIn.push({
      type: 'contribution.absent',
      data: {
        round: report.round,
        inputSha: report.inputSha,
        expert: 'cy',
        reason: 'missing',
        detail: 'no report',
      },
    });
  const heard = acceptedAll(before, handedIn);
  if (heard === null) return null;
  const merge = buildEvents({ kind: 'merge' }, heard);
  if (E.isLeft(merge)) return null;
  const closing = merge.right.at(-1);
  if (closing?.type !== 'round.recorded') return null;
  const partial = closing.data.result === 'partial' || recorded.data.result === 'partial';
  const merged = roundRecorded(closing.data.report, {
    result: partial ? 'partial' : 'complete',
    citations: citationsFor(state.run.policy, closing.data.report),
  });
  const all = [...events.slice(0, -1), ...handedIn, ...merge.right.slice(0, -1), merged];
  return acceptedAll(state, all) === null ? null : all;
};

/** One invalid offer from the catalogue, as the events it would put in a log someone else wrote. */
const noiseEvents = (state: RunState, choices: RoundChoices, noise: Noise): ReadonlyArray<DomainEvent> => {
  if (state.run === null || isFinal(state.status)) return [];
  let valid: ReturnType<typeof buildRound>;
  try {
    valid = buildRound(state, choices, 'next');
  } catch {
    // earlier noise left part of a round behind (a contribution the merge cannot close): no valid round to mutate
    return [];
  }
  const ctx = { state, valid };
  const applicable = MUTATIONS.filter(
    (m) => m.applies(ctx) && (!noise.findingRule || FINDING_RULES.has(m.code)),
  );
  const codes = [...new Set(applicable.map((m) => m.code))];
  const code = codes[noise.which % codes.length];
  const ofCode = applicable.filter((m) => m.code === code);
  const mutation = ofCode[noise.pick % ofCode.length];
  if (mutation === undefined) return [];
  let made: Offer;
  try {
    made = mutation.apply(ctx, noise.pick);
  } catch {
    return []; // a mutation that cannot be built on this state (ids.ts seeds twins it may not find)
  }
  switch (made.kind) {
    case 'events':
      return made.events;
    case 'merge': {
      const merged = buildEvents({ kind: 'merge' }, state);
      return E.isRight(merged) ? merged.right : [];
    }
    case 'report': {
      const parsed = parseReport(made.report);
      if (E.isLeft(parsed)) return []; // refused at the door: no event would be written
      const built = buildEvents(
        {
          kind: 'record',
          report: parsed.right,
          context: {
            ...(made.capture === undefined ? {} : { capture: made.capture }),
            ...(made.checks === undefined ? {} : { checks: made.checks }),
            ...(made.citations === undefined ? {} : { citations: made.citations }),
            ...(made.result === undefined ? {} : { result: made.result }),
          },
        },
        state,
      );
      return E.isRight(built) ? built.right : [];
    }
  }
};

const personEvents = (state: RunState, person: Person): ReadonlyArray<DomainEvent> => {
  const blocking = findingsInOrder(state).filter((f) => f.status === 'open' && f.blocking);
  const ruling = (id: string, status: 'fixed' | 'withdrawn'): DomainEvent => ({
    type: 'finding.ruled',
    data: { findingId: id, status, why: 'a person looked', by: 'Ada' },
  });
  switch (person) {
    case 'rule-all':
      return blocking.map((f) => ruling(f.id, 'withdrawn'));
    case 'rule-one':
      return blocking.slice(0, 1).map((f) => ruling(f.id, 'fixed'));
    case 'extend':
      return [{ type: 'rounds.extended', data: { rounds: 1, why: 'one more try', by: 'Ada' } }];
    default:
      return [];
  }
};

/** A run's log: valid rounds (some closed by a panel), invalid offers among them, people past the cap. */
const logOf = (policy: Policy, plans: ReadonlyArray<RoundPlan>, commands: ReadonlyArray<string>): Log => {
  const log: Log = { events: [], state: initialState };
  offer(log, [
    {
      type: 'run.opened',
      data: {
        runId: RUN_ID,
        policy,
        subject: { repo: '.' },
        consent: { by: 'fast-check', commands: [...commands] },
      },
    },
  ]);
  for (const plan of plans) {
    if (log.state.status === 'blocked') offer(log, personEvents(log.state, plan.person));
    if (isFinal(log.state.status)) break;
    const stubborn = plan.stubborn
      ? { ...plan.choices, touched: FILES.map(() => true), statuses: ['open' as const] }
      : plan.choices;
    const choices = plan.contrary
      ? { ...stubborn, dispute: stubborn.dispute ?? 0, reoffer: stubborn.reoffer ?? 0 }
      : stubborn;
    if (plan.noise !== null) offer(log, noiseEvents(log.state, choices, plan.noise));
    if (isFinal(log.state.status)) break;
    let events: ReadonlyArray<DomainEvent>;
    try {
      events = roundEvents(log.state, choices);
    } catch {
      // the noise left the round where the generator builds no valid report (a stage running): stop here
      break;
    }
    offer(log, (plan.panel === null ? null : asPanel(log.state, events, plan.panel)) ?? events);
  }
  return log;
};

const logArb: fc.Arbitrary<ReadonlyArray<DomainEvent>> = fc
  .record({
    policy: policyArb,
    plans: fc.array(roundPlanArb, { minLength: 1, maxLength: 7 }),
    // a quarter of the runs keep every finding open round after round, so streaks stall them;
    // a quarter dispute and offer refuted candidates again in every round
    stubborn: fc.oneof(
      { weight: 3, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    contrary: fc.oneof(
      { weight: 3, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    commands: fc.constantFrom([], ['npm test']),
  })
  .map(
    ({ policy, plans, stubborn, contrary, commands }) =>
      logOf(
        policy,
        plans.map((p) => ({ ...p, stubborn: p.stubborn || stubborn, contrary: p.contrary || contrary })),
        commands,
      ).events,
  );

/** Every file a run's findings could be in, or were in before a rename, and one no finding is in. */
const filesOf = (events: ReadonlyArray<DomainEvent>): string[] => {
  const files = new Set<string>([...FILES, 'nowhere/at-all.ts']);
  for (const e of events) {
    if (e.type === 'revision.captured') for (const r of e.data.renames) files.add(r.from).add(r.to);
    if (e.type === 'round.recorded' || e.type === 'contribution.recorded')
      for (const c of e.data.report.candidates) files.add(c.file);
  }
  return [...files].sort();
};

/** A refuted record as both folds keep it (the fold's also says where it points and what it is). */
const refutedPlain = ({ id, round, file, by, evidence, claim, before }: ReferenceRefuted) => ({
  id,
  round,
  file,
  by,
  evidence,
  claim,
  before,
});

/** The fold's state as plain data, read through the public accessors (and so through the index). */
const plainOf = (state: RunState, files: ReadonlyArray<string>) => {
  const findings = findingsInOrder(state);
  return {
    status: state.status,
    round: state.round,
    stall: state.stall,
    disputed: state.disputed,
    refuted: toArray(state.refuted).map(refutedPlain),
    findings: findings.map((f) => ({
      id: f.id,
      file: f.file,
      line: f.line,
      cited: f.cited ?? null,
      outdated: f.outdated === true,
      correction: f.correction ?? null,
      severity: f.severity,
      blocking: f.blocking,
      status: f.status,
      openedRound: f.openedRound,
      steps: toArray(f.steps),
      reviewers: f.reviewers ?? [],
      mergedFrom: f.mergedFrom ?? [],
      disputes: f.disputes ?? [],
    })),
    byId: findings.map((f) => findingOf(state, f.id)?.id ?? null),
    byPrefix: findings.map((f) => findingsNamed(state.findings, f.id.slice(0, 8))),
    openBlocking: openBlockingCount(state),
    open: state.findings.open,
    openIn: Object.fromEntries(files.map((file) => [file, openFindingsIn(state, file).map((f) => f.id)])),
  };
};

/** The same, from the reference: every answer by a scan of its records. */
const plainOfReference = (s: ReferenceState, files: ReadonlyArray<string>) => {
  const findings = Object.values(s.findings);
  return {
    status: s.status,
    round: s.round,
    stall: s.stall,
    disputed: s.disputed,
    refuted: s.refuted.map(refutedPlain),
    findings: findings.map((f) => ({
      id: f.id,
      file: f.file,
      line: f.line,
      cited: f.cited,
      outdated: f.outdated,
      correction: f.correction,
      severity: f.severity,
      blocking: f.blocking,
      status: f.status,
      openedRound: f.openedRound,
      steps: f.steps,
      reviewers: f.reviewers,
      mergedFrom: f.mergedFrom,
      disputes: f.disputes,
    })),
    byId: findings.map((f) => f.id),
    byPrefix: findings.map((f) => findings.map((g) => g.id).filter((id) => id.startsWith(f.id.slice(0, 8)))),
    openBlocking: findings.filter((f) => f.status === 'open' && f.blocking).length,
    open: findings.filter((f) => f.status === 'open').length,
    openIn: Object.fromEntries(
      files.map((file) => [
        file,
        findings.filter((f) => f.status === 'open' && f.file === file).map((f) => f.id),
      ]),
    ),
  };
};

/**
 * Events a log could have held instead, asked of both folds without being kept. An accepted round
 * with one of its decisions left out: the touched-file rule, read through the index by file.
 */
const withOneDecisionLess = (event: DomainEvent): DomainEvent[] => {
  if (event.type !== 'round.recorded') return [];
  const { verdict: _, ...report } = event.data.report;
  const options = {
    result: event.data.result,
    ...(event.data.citations === undefined ? {} : { citations: event.data.citations }),
  };
  return [...report.decisions.keys()].map((i) =>
    roundRecorded({ ...report, decisions: report.decisions.filter((_, j) => j !== i) }, options),
  );
};

/** While the run is blocked, a ruling on each open blocking finding: the count a ruling converges on. */
const eachRuling = (state: RunState): DomainEvent[] =>
  state.status !== 'blocked'
    ? []
    : findingsInOrder(state)
        .filter((f) => f.status === 'open' && f.blocking)
        .map((f) => ({
          type: 'finding.ruled',
          data: { findingId: f.id, status: 'fixed', why: 'a probe', by: 'Ada' },
        }));

/** One event through both folds: the same acceptance, or the same refusal by a rule that reads findings. */
const bothStep = (
  state: RunState,
  reference: ReferenceState,
  event: DomainEvent,
  where: string,
): Readonly<{ state: RunState; reference: ReferenceState; accepted: boolean }> => {
  const after = step(state, event);
  const refusal = referenceRefusal(reference, event);
  if (after.rejection === null) {
    expect(refusal, `${where}: the fold accepted what the reference refuses`).toBeNull();
    return { state: after.state, reference: referenceStep(reference, event), accepted: true };
  }
  if (FINDING_RULES.has(after.rejection.code))
    expect(refusal, `${where}: refused ${after.rejection.code}: ${after.rejection.message}`).toBe(
      after.rejection.code,
    );
  return { state, reference, accepted: false };
};

/**
 * Fold `events` both ways, comparing after every event (and every probe of it): what was accepted
 * or refused by a rule that reads findings, and the state as the public accessors read it.
 */
const foldBothWays = (events: ReadonlyArray<DomainEvent>): void => {
  const files = filesOf(events);
  let state = initialState;
  let reference = referenceStart();
  const probe = (from: RunState, ref: ReferenceState, probes: DomainEvent[], where: string) => {
    for (const [k, p] of probes.entries()) {
      const probed = bothStep(from, ref, p, `${where}, probe ${k + 1} (${p.type})`);
      expect(plainOf(probed.state, files), `${where}, probe ${k + 1}`).toEqual(
        plainOfReference(probed.reference, files),
      );
    }
  };
  for (const [i, event] of events.entries()) {
    const where = `event ${i + 1} (${event.type})`;
    const next = bothStep(state, reference, event, where);
    if (next.accepted) probe(state, reference, withOneDecisionLess(event), `instead of ${where}`);
    ({ state, reference } = next);
    expect(plainOf(state, files), where).toEqual(plainOfReference(reference, files));
    probe(state, reference, eachRuling(state), `after ${where}`);
  }
};

describe('the indexed fold against the reference fold', () => {
  property([logArb], { numRuns })(
    'the same findings, index answers, verdict and round after every event, and the same refusals',
    (events) => {
      foldBothWays(events);
    },
  );

  property([logArb.chain((events) => fc.tuple(fc.constant(events), fc.nat({ max: events.length })))], {
    numRuns,
  })('a state read back from its JSON (the checkpoint) folds on to the same state', ([events, cut]) => {
    let head = initialState;
    for (const event of events.slice(0, cut)) head = step(head, event).state;
    const revived = JSON.parse(JSON.stringify(head)) as RunState;
    expect(revived).toEqual(head);
    let whole = head;
    let fromRevived = revived;
    for (const event of events.slice(cut)) {
      whole = step(whole, event).state;
      fromRevived = step(fromRevived, event).state;
    }
    expect(fromRevived).toEqual(whole);
  });

  it('the generated logs reach what the index must get right', () => {
    const logs = fc.sample(logArb, { numRuns: 200, seed: 22 });
    const count = (pred: (e: DomainEvent, state: RunState) => boolean) => {
      let n = 0;
      for (const events of logs) {
        let state = initialState;
        for (const e of events) {
          const before = state;
          const after = step(state, e);
          if (after.rejection === null && pred(e, before)) n += 1;
          state = after.state;
        }
      }
      return n;
    };
    const refused = (code: string) =>
      logs.filter((events) => {
        let state = initialState;
        return events.some((e) => {
          const after = step(state, e);
          state = after.state;
          return after.rejection?.code === code;
        });
      }).length;
    const renamesOfFindings = count(
      (e, s) =>
        e.type === 'round.recorded' &&
        s.capture !== null &&
        s.capture.renames.some((r) => findingsInOrder(s).some((f) => f.file === r.from)),
    );
    const reopenings = count(
      (e) => e.type === 'round.recorded' && e.data.report.decisions.some((d) => d.status === 'reopened'),
    );
    const merges = count((e, s) => e.type === 'round.recorded' && s.contributions.length > 0);
    const corroborations = count(
      (e) => e.type === 'round.recorded' && e.data.report.candidates.some((c) => c.sameAs !== undefined),
    );
    const stalls = count((e, s) => e.type === 'round.recorded' && s.stall === null && evolveStalls(s, e));
    const lineMoves = count(
      (e, s) => e.type === 'round.recorded' && (s.capture?.moves ?? []).some((m) => m.outdated !== true),
    );
    const outdated = count(
      (e, s) => e.type === 'round.recorded' && (s.capture?.moves ?? []).some((m) => m.outdated === true),
    );
    const placements = count(
      (e) =>
        e.type === 'contribution.recorded' &&
        (e.data.report.verifications ?? []).some((v) => v.correction !== undefined),
    );
    const rulings = count((e) => e.type === 'finding.ruled');
    const disputes = count((e) => e.type === 'finding.disputed');
    const disputesRuled = count(
      (e, s) => e.type === 'round.recorded' && e.data.report.decisions.some((d) => s.disputed.includes(d.id)),
    );
    const disputeStalls = count(
      (e, s) => e.type === 'round.recorded' && evolveStallsWith(s, e).some((f) => f.why === 'disputed'),
    );
    const refutedBefore = count((e, s) => e.type === 'round.recorded' && refutedBeforeIn(s, e) > 0);
    const extensions = count((e) => e.type === 'rounds.extended');
    const converged = logs.filter((events) => fold(events).status === 'converged').length;
    const stats = {
      renamesOfFindings,
      lineMoves,
      outdated,
      placements,
      reopenings,
      merges,
      corroborations,
      stalls,
      rulings,
      extensions,
      converged,
      disputes,
      disputesRuled,
      disputeStalls,
      refutedBefore,
      missingDecision: refused('missing-decision'),
      verdictMismatch: refused('verdict-mismatch'),
      untouchedDecision: refused('untouched-decision'),
      invalidMove: refused('invalid-move'),
      undecidedDispute: refused('undecided-dispute'),
    };
    for (const [what, n] of Object.entries(stats)) expect(n, what).toBeGreaterThan(0);
  });
});

const evolveStalls = (state: RunState, event: DomainEvent): boolean => {
  const next = evolve(state, event);
  return E.isRight(next) && next.right.stall !== null;
};

const evolveStallsWith = (state: RunState, event: DomainEvent) => {
  const next = evolve(state, event);
  return E.isRight(next) ? (next.right.stall?.findings ?? []) : [];
};

/** How many candidates an accepted round kept as refuted before. */
const refutedBeforeIn = (state: RunState, event: DomainEvent): number => {
  const next = evolve(state, event);
  if (E.isLeft(next)) return 0;
  return toArray(next.right.refuted)
    .slice(state.refuted.size)
    .filter((r) => r.before !== undefined).length;
};

const fold = (events: ReadonlyArray<DomainEvent>): RunState => {
  let state = initialState;
  for (const event of events) state = step(state, event).state;
  return state;
};
