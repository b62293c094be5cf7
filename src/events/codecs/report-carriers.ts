import * as t from 'io-ts';

/**
 * The two events that carry a report, around whichever report codec their version stores. Since
 * `round.recorded` v2 and `contribution.recorded` v1, a new version of either has changed only the
 * report inside, so each version is this shape over its own report codec: the envelope is written
 * once, and a version still names exactly the report it stores.
 */

/** `round.recorded` from v2 on: the report, its hash, the round's result and resolved citations. */
export const roundRecordedCarrying = <R extends t.Mixed>(report: R) =>
  t.intersection([
    t.type({
      round: t.number,
      inputSha: t.string,
      reportSha: t.string,
      report,
      /** `partial`: the budget ran out or an expert handed in nothing; its findings count, it never converges */
      result: t.keyof({ complete: null, partial: null }),
    }),
    t.partial({
      citations: t.array(
        t.intersection([
          t.type({ candidate: t.number, citation: t.string, resolved: t.boolean }),
          t.partial({ reason: t.string }),
        ]),
      ),
    }),
  ]);

/** `contribution.recorded`: one reviewer's report; `expert` is absent for an anonymous contribution. */
export const contributionRecordedCarrying = <R extends t.Mixed>(report: R) =>
  t.intersection([
    t.type({ round: t.number, inputSha: t.string, reportSha: t.string, report }),
    t.partial({ expert: t.string }),
  ]);
