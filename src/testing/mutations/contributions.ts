import { contributionRecorded, roundRecorded } from '../../events/build.js';
import type { DomainEvent } from '../../events/event.js';
import { PRESETS } from '../../events/policy.js';
import type { RoundReport } from '../../events/report-types.js';
import { panelOfNextRound } from '../../projections/rules/contribution.js';
import { accepting, type Context, type Mutation } from '../offers.js';

/** The valid next round's report as one reviewer's contribution (a declared verdict is the merge's to derive). */
const asContribution = (c: Context & { valid: NonNullable<Context['valid']> }): RoundReport => {
  const { verdict: _, ...report } = c.valid.report;
  return report;
};

/** Mutations of a round from several reviewers: contributions, absences and the merge. */
export const CONTRIBUTIONS_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'duplicate-contribution',
    name: 'one reviewer contributes twice to a round',
    applies: accepting,
    apply: (c) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const report = asContribution(c);
      return {
        kind: 'events',
        events: [
          { type: 'revision.captured', data: c.valid.capture },
          contributionRecorded(report, 'ada'),
          contributionRecorded(report, 'ada'),
        ],
      };
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
      return {
        kind: 'events',
        events: [
          { type: 'revision.captured', data: c.valid.capture },
          contributionRecorded(report, 'ada'),
          roundRecorded(
            { ...report, reviewer: 'someone who is not the merge' },
            { citations: c.valid.citations, result: c.valid.result },
          ),
        ],
      };
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
    name: 'a merged round that skips an expert the policy expects',
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
