import { citationOf } from '../citation.js';
import type { Deferred, RunState } from '../state.js';
import { toArray } from '../vec.js';

/**
 * A candidate deferred to a follow-up as the screens show it: where it points, and for one past its
 * severity's `untilRound`, that round, so a reader sees the bar it came in over ("minor is admitted
 * until round 2") rather than only a reason code.
 */
export type DeferredView = Deferred &
  Readonly<{
    /** `file:line`, or `file § Section` for a document */
    citation: string;
    /** reason `until-round`: the last round its severity is admitted in; otherwise null */
    untilRound: number | null;
  }>;

/** Every deferred candidate of the run, in the order their rounds deferred them. */
export const deferredOf = (state: RunState): ReadonlyArray<DeferredView> =>
  toArray(state.deferred).map((d) => ({
    ...d,
    citation: citationOf(d),
    untilRound:
      d.reason === 'until-round' ? (state.run?.policy.severities[d.severity]?.untilRound ?? null) : null,
  }));
