import type { DomainEvent } from '../../events/event.js';
import { PRESETS } from '../../events/policy.js';
import { isFinal } from '../../projections/state.js';
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
];
