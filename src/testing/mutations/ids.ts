import * as E from '#either';
import { roundRecorded } from '../../events/build.js';
import type { DomainEvent } from '../../events/event.js';
import { citationsRequired, newOutsideFixOf, type Policy } from '../../events/policy.js';
import type { Candidate, RoundReport } from '../../events/report-types.js';
import { citationOf } from '../../projections/views/findings.js';
import { evolveEach } from '../decide.js';
import { accepting, type Context, capturedEvents, type Mutation, touchedBy } from '../offers.js';

/**
 * Two findings whose ids begin with the same 8 hex characters, `6bf2c6ac`, found once by a
 * birthday search over the summary (about 2^16 tries): the only way a real run holds a prefix of
 * 8 that names two findings.
 */
export const TWIN_PREFIX = '6bf2c6ac';
export const TWINS: ReadonlyArray<Pick<Candidate, 'file' | 'category' | 'summary'>> = [
  { file: 'src/a.ts', category: 'correctness', summary: 'Twin finding 27670' },
  { file: 'src/a.ts', category: 'correctness', summary: 'Twin finding 83260' },
];

/** A severity under which both twins become findings beside the valid round's own candidates, if any. */
const admittingSeverity = (c: Context): string | undefined => {
  const { state, valid } = c;
  if (state.run === null || valid === null) return undefined;
  const round = state.round + 1;
  const { policy } = state.run;
  // from round 2 a new candidate in a file the fix did not touch may be deferred, whatever its severity
  if (
    round >= 2 &&
    newOutsideFixOf(policy) === 'defer' &&
    !touchedBy(valid.capture).has(TWINS[0]?.file ?? '')
  )
    return undefined;
  const offered = (name: string) => valid.report.candidates.filter((x) => x.severity === name).length;
  return Object.entries(policy.severities).find(
    ([name, rule]) =>
      !(rule.firstRoundOnly && round > 1) &&
      !(rule.untilRound !== undefined && round > rule.untilRound) &&
      (rule.maxAdmitted === null || rule.maxAdmitted - (state.admitted[name] ?? 0) - offered(name) >= 2),
  )?.[0];
};

/**
 * The valid next round with the twins added (recorded partial, so the run cannot converge on it),
 * then an event naming them by their shared prefix: a decision in the round after, or a person's
 * ruling if that round reached the cap.
 */
const twinsThenPrefix = (
  c: Context & { valid: NonNullable<Context['valid']> },
): ReadonlyArray<DomainEvent> => {
  const policy = c.state.run?.policy as Policy;
  const round = c.state.round + 1;
  const severity = admittingSeverity(c) as string;
  const twins: Candidate[] = TWINS.map((t) => ({
    ...t,
    line: 7,
    severity,
    confirmed: true,
    evidence: 'two findings, one prefix',
    ...(policy.principleCategories.includes(t.category) ? { principle: 'one id, one finding' } : {}),
  }));
  const { verdict: _, ...report } = c.valid.report;
  const candidates = [...report.candidates, ...twins];
  const citations = citationsRequired(policy)
    ? candidates.map((cand, i) => ({
        candidate: i,
        citation: citationOf({ file: cand.file, line: cand.line ?? null, section: cand.section ?? null }),
        resolved: true,
      }))
    : undefined;
  const seeded: DomainEvent[] = [
    ...capturedEvents(c.valid),
    roundRecorded({ ...report, candidates }, { citations, result: 'partial' }),
  ];
  const after = evolveEach(c.state, seeded);
  if (E.isLeft(after)) throw new Error(`twins: the seeding round was refused: ${after.left.message}`);
  if (after.right.status === 'blocked') {
    return [
      ...seeded,
      {
        type: 'finding.ruled',
        data: { findingId: TWIN_PREFIX, status: 'withdrawn', why: 'one of the twins', by: 'Ada' },
      },
    ];
  }
  const next = round + 1;
  const decisionRound: RoundReport = {
    runId: report.runId,
    round: next,
    inputSha: `twins-${next}`,
    completed: true,
    candidates: [],
    decisions: [{ id: TWIN_PREFIX, status: 'open', evidence: 'still stands' }],
    notExamined: ['everything else'],
  };
  return [
    ...seeded,
    {
      type: 'revision.captured',
      data: { round: next, inputSha: `twins-${next}`, touchedFiles: [], renames: [] },
    },
    roundRecorded(decisionRound, { result: 'partial' }),
  ];
};

/** Mutations that name a finding in a way that does not say which one. */
export const IDS_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'ambiguous-id',
    name: 'a prefix of 8 hex characters two findings share',
    applies: (c) => accepting(c) && admittingSeverity(c) !== undefined,
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      return { kind: 'events', events: twinsThenPrefix(c) };
    },
  },
];
