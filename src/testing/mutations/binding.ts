import { roundRecorded } from '../../events/build.js';
import type { RevisionCapturedData } from '../../events/event.js';
import type { RoundReport } from '../../events/report-types.js';
import { ZERO_HASH } from '../../events/sha256.js';
import { accepting, type Mutation, pickOf, withReport } from '../offers.js';

/** Mutations that break binding a report to its run, round and input. */
export const BINDING_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'wrong-round',
    name: 'report for another round',
    applies: accepting,
    apply: (c, p) =>
      withReport(c, (r) => ({ ...r, round: pickOf([r.round + 1, r.round - 1, r.round + 0.5], p) })),
  },
  {
    code: 'no-revision',
    name: 'report with no capture',
    applies: (c) => accepting(c) && c.state.capture === null,
    apply: (c) => ({ kind: 'report', report: c.valid?.report }),
  },
  {
    code: 'wrong-run',
    name: 'report of another run',
    applies: accepting,
    apply: (c) => withReport(c, (r) => ({ ...r, runId: `${r.runId}-other` })),
  },
  {
    code: 'wrong-input',
    name: 'report of other bytes',
    applies: accepting,
    apply: (c) => withReport(c, (r) => ({ ...r, inputSha: `${r.inputSha}-other` })),
  },
  {
    code: 'not-completed',
    name: 'completed false',
    applies: accepting,
    apply: (c) => withReport(c, (r) => ({ ...r, completed: false })),
  },
  {
    code: 'inconsistent-event',
    name: 'forged reportSha',
    applies: accepting,
    apply: (c) => {
      const e = roundRecorded(c.valid?.report as RoundReport, { citations: c.valid?.citations });
      return {
        kind: 'events',
        events: [
          { type: 'revision.captured', data: c.valid?.capture as RevisionCapturedData },
          { ...e, data: { ...e.data, reportSha: ZERO_HASH } },
        ],
      };
    },
  },
  {
    code: 'invalid-report',
    name: 'misspelt key, wrong type or missing field',
    applies: accepting,
    apply: (c, p) =>
      withReport(c, (r) =>
        pickOf<unknown>(
          [
            { ...r, decisons: [] },
            { ...r, completed: 'yes' },
            { ...r, candidates: [{ ...(r.candidates[0] ?? {}), sumary: 'x' }] },
            (({ inputSha: _, ...rest }) => rest)(r),
          ],
          p,
        ),
      ),
  },
];
