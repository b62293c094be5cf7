import { contributionRecorded, roundRecorded } from '../../events/build.js';
import type { DomainEvent } from '../../events/event.js';
import { disputesAllowed } from '../../events/policy.js';
import { findingsInOrder } from '../../projections/finding-index.js';
import { pendingDispute } from '../../projections/rules/disputes.js';
import type { Finding } from '../../projections/state.js';
import { accepting, type Context, capturedEvents, type Mutation, pickOf, untouchedOpen } from '../offers.js';

const dispute = (c: Context, f: Finding, reason: string): DomainEvent => ({
  type: 'finding.disputed',
  data: { findingId: f.id, round: c.state.round + 1, reason },
});

const allowed = (c: Context) => c.state.run !== null && disputesAllowed(c.state.run.policy);

/** Whether the round in progress has begun its review: a stage ran, or a reviewer was heard from. */
const begun = ({ state }: Context): boolean =>
  state.stages.finished.length > 0 ||
  state.stages.running !== null ||
  Object.keys(state.stages.failures).length > 0 ||
  state.contributions.length > 0 ||
  state.absent.length > 0;

/** Open findings the author may dispute now: none pending, and the round's review not begun. */
const disputable = (c: Context): ReadonlyArray<Finding> =>
  accepting(c) && allowed(c) && !begun(c)
    ? findingsInOrder(c.state).filter((f) => f.status === 'open' && pendingDispute(f) === undefined)
    : [];

/** Mutations of the author's disputes, and of the round that must rule on them. */
export const DISPUTES_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'disputes-off',
    name: 'a dispute under a policy that turns disputes off',
    applies: (c) => accepting(c) && !allowed(c) && findingsInOrder(c.state).some((f) => f.status === 'open'),
    apply: (c, p) => {
      const open = findingsInOrder(c.state).filter((f) => f.status === 'open');
      return { kind: 'events', events: [dispute(c, pickOf(open, p), 'it is wrong')] };
    },
  },
  {
    code: 'duplicate-dispute',
    name: 'a finding disputed twice, with two reasons, before a round rules',
    applies: (c) => disputable(c).length > 0,
    apply: (c, p) => {
      const f = pickOf(disputable(c), p);
      return { kind: 'events', events: [dispute(c, f, 'it is wrong'), dispute(c, f, 'it is still wrong')] };
    },
  },
  {
    code: 'review-begun',
    name: "a dispute after the round's first contribution",
    applies: (c) => disputable(c).length > 0,
    apply: (c, p) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const { capture } = c.valid;
      const handedIn = contributionRecorded(
        {
          runId: c.valid.report.runId,
          round: capture.round,
          inputSha: capture.inputSha,
          completed: true,
          candidates: [],
          decisions: [],
        },
        'a reviewer no policy names',
      );
      return {
        kind: 'events',
        events: [...capturedEvents(c.valid), handedIn, dispute(c, pickOf(disputable(c), p), 'too late')],
      };
    },
  },
  {
    code: 'undecided-dispute',
    name: 'a round that leaves a disputed finding in an untouched file undecided',
    applies: (c) => {
      const can = new Set(disputable(c).map((f) => f.id));
      return untouchedOpen(c).some((f) => can.has(f.id));
    },
    apply: (c, p) => {
      if (!accepting(c)) throw new Error('mutation applied to a state that accepts no round');
      const can = new Set(disputable(c).map((f) => f.id));
      const f = pickOf(
        untouchedOpen(c).filter((u) => can.has(u.id)),
        p,
      );
      const { report, citations, result } = c.valid;
      const { verdict: _, ...undeclared } = report;
      return {
        kind: 'events',
        events: [
          dispute(c, f, 'it is wrong'),
          ...capturedEvents(c.valid),
          roundRecorded(undeclared, { citations, result }),
        ],
      };
    },
  },
];
