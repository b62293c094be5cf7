import * as t from 'io-ts';

export const CHECK_STATES = ['passed', 'failed', 'skipped'] as const;

/** One CI check as it finished: its name, how it ended, and where its log is, when known. */
export const CheckResultV1 = t.intersection([
  t.type({ name: t.string, state: t.keyof({ passed: null, failed: null, skipped: null }) }),
  t.partial({ url: t.string }),
]);

/**
 * The project's CI checks, as they finished on the input captured for the round in progress
 * (`clearance checks`), all in one event: what the rules judge (a required check that did not pass
 * ends the round `ci_failed`) and what the gate approves on.
 */
export const ChecksRecordedV1 = t.type({
  round: t.number,
  inputSha: t.string,
  checks: t.array(CheckResultV1),
});
