import { contributionRecorded, roundRecorded } from '../../events/build.js';
import type { DomainEvent } from '../../events/event.js';
import { PRESETS } from '../../events/policy.js';
import type { RoundReport, Verification } from '../../events/report-types.js';
import { panelOfNextRound } from '../../projections/rules/contribution.js';
import { accepting, type Context, type Mutation, type Offer, pickOf, someCandidate } from '../offers.js';

/** The valid next round's report as one reviewer's contribution (a declared verdict is the merge's to derive). */
const asContribution = (c: Context & { valid: NonNullable<Context['valid']> }): RoundReport => {
  const { verdict: _, ...report } = c.valid.report;
  return report;
};

/** The valid round's capture, then `events` after it: a round in progress, offered as raw events. */
const afterCapture = (c: Context, ...events: DomainEvent[]): Offer => {
  if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
  return { kind: 'events', events: [{ type: 'revision.captured', data: c.valid.capture }, ...events] };
};

/**
 * A finder's contribution with a candidate, then a verifier's that rules on it with `ruling` changed:
 * a verifier's correction of where the candidate is, broken.
 */
const verifiedWith = (c: Context, change: (v: Verification) => Verification): Offer => {
  if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
  const { report, index } = someCandidate(c);
  const { verdict: _, ...finder } = report;
  const candidate = finder.candidates[index] as (typeof finder.candidates)[number];
  const ruling: Verification = {
    file: candidate.file,
    category: candidate.category,
    summary: candidate.summary,
    verdict: 'confirmed',
    evidence: 'checked it',
    correction: { line: (candidate.line ?? 1) + 7, evidence: 'the line the problem is at' },
  };
  const verifier = { ...finder, candidates: [], decisions: [], verifications: [change(ruling)] };
  return afterCapture(c, contributionRecorded(finder, 'ada'), contributionRecorded(verifier, 'vera'));
};

/** Mutations of a round from several reviewers: contributions, absences and the merge. */
export const CONTRIBUTIONS_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'invalid-line',
    name: "a verifier's correction to line 0, a negative or a fractional line",
    applies: accepting,
    apply: (c, p) =>
      verifiedWith(c, (v) => ({
        ...v,
        correction: { line: pickOf([0, -2, 4.5], p), evidence: 'the line the problem is at' },
      })),
  },
  {
    code: 'empty-evidence',
    name: "a verifier's correction without evidence",
    applies: accepting,
    apply: (c) => verifiedWith(c, (v) => ({ ...v, correction: { line: 3, evidence: ' ' } })),
  },
  {
    code: 'invalid-report',
    name: 'a verifier that refutes a candidate and corrects where it is',
    applies: accepting,
    apply: (c) => verifiedWith(c, (v) => ({ ...v, verdict: 'refuted' })),
  },
  {
    code: 'duplicate-contribution',
    name: 'one reviewer contributes twice to a round',
    applies: accepting,
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const report = asContribution(c);
      return afterCapture(c, contributionRecorded(report, 'ada'), contributionRecorded(report, 'ada'));
    },
  },
  {
    code: 'no-contributions',
    name: 'record --merge with no contribution handed in for the round',
    applies: (c) => accepting(c) && panelOfNextRound(c.state).contributions.length === 0,
    apply: () => ({ kind: 'merge' }),
  },
  {
    code: 'merge-mismatch',
    name: 'a round report that is not the merge of the round’s contributions',
    applies: accepting,
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const report = asContribution(c);
      return afterCapture(
        c,
        contributionRecorded(report, 'ada'),
        roundRecorded(
          { ...report, reviewer: 'someone who is not the merge' },
          { citations: c.valid.citations, result: c.valid.result },
        ),
      );
    },
  },
  {
    code: 'absent-reviewer',
    name: 'a round with an absent reviewer recorded complete',
    applies: (c) => accepting(c) && c.valid.result === 'complete',
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const { capture, report } = c.valid;
      const absent: DomainEvent = {
        type: 'contribution.absent',
        data: {
          round: capture.round,
          inputSha: capture.inputSha,
          expert: 'cy',
          reason: 'missing',
          detail: 'timed out',
        },
      };
      return {
        kind: 'events',
        events: [
          { type: 'revision.captured', data: capture },
          absent,
          roundRecorded(report, { citations: c.valid.citations, result: 'complete' }),
        ],
      };
    },
  },
  {
    code: 'expert-unaccounted',
    name: 'a merged round that skips a reviewer the policy expects',
    applies: (c) => c.state.run === null,
    apply: () => {
      const report: RoundReport = {
        runId: 'panel',
        round: 1,
        inputSha: 'p1',
        completed: true,
        candidates: [],
        decisions: [],
      };
      return {
        kind: 'events',
        events: [
          {
            type: 'run.opened',
            data: {
              runId: 'panel',
              policy: { ...PRESETS.default, experts: ['ada', 'bob'] },
              subject: {},
              consent: { by: 'x' },
            },
          },
          { type: 'revision.captured', data: { round: 1, inputSha: 'p1', touchedFiles: [], renames: [] } },
          contributionRecorded(report, 'ada'),
          roundRecorded(report),
        ],
      };
    },
  },
];
