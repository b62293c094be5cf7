import type { DomainEvent, RevisionCapturedData } from '../../events/event.js';
import { PRESETS, sameInputRoundsOf } from '../../events/policy.js';
import { isFinal, type RunState } from '../../projections/state.js';
import { accepting, type Mutation, nextCapture, plausibleReport } from '../offers.js';

/** Mutations that break opening a run, and a run that is final. */
export const RUN_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'not-opened',
    name: 'report before run.opened',
    applies: (c) => c.state.run === null,
    apply: (c) => ({ kind: 'report', report: plausibleReport(c.state), capture: nextCapture(c.state) }),
  },
  {
    code: 'invalid-policy',
    name: 'open with maxRounds 0',
    applies: (c) => c.state.run === null,
    apply: () => ({
      kind: 'events',
      events: [
        {
          type: 'run.opened',
          data: {
            runId: 'r',
            policy: { ...PRESETS.default, maxRounds: 0 },
            subject: {},
            consent: { by: 'x' },
          },
        },
      ],
    }),
  },
  {
    code: 'already-opened',
    name: 'open twice',
    applies: (c) => c.state.run !== null,
    apply: () => ({
      kind: 'events',
      events: [
        {
          type: 'run.opened',
          data: { runId: 'r2', policy: PRESETS.default, subject: {}, consent: { by: 'x' } },
        },
      ],
    }),
  },
  {
    code: 'unknown-event',
    name: 'an event type nobody defined',
    applies: () => true,
    apply: () => ({ kind: 'events', events: [{ type: 'round.bogus', data: {} } as unknown as DomainEvent] }),
  },
  {
    code: 'run-final',
    name: 'a round after the end',
    applies: (c) => isFinal(c.state.status),
    apply: (c) => ({ kind: 'report', report: plausibleReport(c.state), capture: nextCapture(c.state) }),
  },
  {
    code: 'empty-field',
    name: 'capture with a blank inputSha',
    applies: accepting,
    apply: (c) => ({
      kind: 'events',
      events: [{ type: 'revision.captured', data: { ...nextCapture(c.state), inputSha: ' ' } }],
    }),
  },
  {
    code: 'unchanged-input',
    name: 'capture of the bytes the last round reviewed, without saying so',
    applies: (c) => accepting(c) && c.state.reviewed !== null,
    apply: (c, p) => ({
      kind: 'events',
      events: [{ type: 'revision.captured', data: sameBytesAgain(c.state, p) }],
    }),
  },
  {
    code: 'same-input-limit',
    name: 'one same-input round more than the policy allows',
    applies: (c) =>
      accepting(c) &&
      c.state.reviewed !== null &&
      c.state.run !== null &&
      c.state.sameInputRounds >= sameInputRoundsOf(c.state.run.policy),
    apply: (c, p) => ({
      kind: 'events',
      events: [
        {
          type: 'revision.captured',
          data: { ...sameBytesAgain(c.state, p), sameInput: { reason: 'once more' } },
        },
      ],
    }),
  },
];

/** A capture of what the last round reviewed: its inputSha, or (git) its tree under a new commit. */
const sameBytesAgain = (state: RunState, pick: number): RevisionCapturedData => {
  const reviewed = state.reviewed as RevisionCapturedData;
  const bytes = { ...nextCapture(state), inputSha: reviewed.inputSha };
  return pick % 2 === 0 || reviewed.tree === undefined
    ? bytes
    : {
        ...bytes,
        inputSha: `${reviewed.inputSha}-amended`,
        commit: 'amended',
        tree: reviewed.tree,
        ...(reviewed.artifactSha === undefined ? {} : { artifactSha: reviewed.artifactSha }),
      };
};
