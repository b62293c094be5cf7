import * as t from 'io-ts';

/**
 * Severity admission, per severity: whether it blocks, the last round it may enter in, and how many
 * of it may be admitted over the whole run (the rest are suppressed, visibly).
 */
const SeverityRule = t.intersection([
  t.type({
    blocks: t.boolean,
    /** enters in round 1 only; a later candidate is suppressed (`late`). The older spelling of `untilRound: 1` */
    firstRoundOnly: t.boolean,
    maxAdmitted: t.union([t.number, t.null]),
  }),
  t.partial({
    /**
     * the last round a candidate of this severity is admitted in (absent: every round, as in every
     * log written before rising floors existed). A later candidate is deferred to a follow-up: kept
     * on the record with its reviewer and evidence, never a finding, never blocking.
     */
    untilRound: t.number,
  }),
]);

/**
 * The policy as `run.opened` v1 pins it: the rules of a run cannot change once it starts. The
 * domain's `Policy` (../policy.ts) is the latest version's, as decoded; the door's is
 * ../policy-schema.ts. Never edit: add a version.
 */
export const PolicyCodecV1 = t.intersection([
  t.type({
    name: t.string,
    maxRounds: t.number,
    severities: t.record(t.string, SeverityRule),
    /** A report with no candidates must list what it did not examine. */
    notExaminedRequired: t.boolean,
    /** Decisions allowed on a finding whose file was not touched since the last reviewed input. */
    untouchedDecisions: t.array(t.keyof({ fixed: null, open: null, withdrawn: null })),
  }),
  // optional with a stated default, so a log written before they existed means what it meant
  t.partial({
    /** `required`: every candidate's citation must resolve at the captured revision (default `optional`) */
    citations: t.keyof({ required: null, optional: null }),
    /**
     * What an approval is bound to (default `commit`). `tree`, after Gerrit's copy conditions, lets
     * an approval survive a new commit whose tree is identical, such as a message-only amend.
     */
    bind: t.keyof({ commit: null, tree: null }),
    /**
     * the reviewers a round expects (default none: any reviewers, or one anonymous report);
     * `experts` is the stored spelling of reviewers, pinned in every policy and log
     */
    experts: t.array(t.string),
    /** candidates of one category in one file this many lines apart or closer merge (default 3) */
    mergeWithinLines: t.number,
    /**
     * Stalls caught before the cap (absent: off, as in every log written before stalls existed).
     * The run ends `blocked` early, reason `stalled`, when a blocking finding is decided `open` in
     * this many consecutive rounds, or is reopened a second time. An integer >= 2
     * (rules/lifecycle.ts); the `standard` preset sets 2.
     */
    stallRounds: t.number,
    /**
     * what a `plausible` assessment means (default `blocks`: it counts like confirmed, its severity
     * decides). `advisory`: a plausible finding never blocks. `advisory-outside-fix`: from round 2,
     * a plausible finding in a file the last fix did not touch does not block (issueflow's rule
     * against findings that oscillate between rounds).
     */
    plausible: t.keyof({ blocks: null, advisory: null, 'advisory-outside-fix': null }),
    /**
     * the non-blocking severity a candidate gets when `introducedByDiff: false` (default: the
     * policy's `pre-existing` severity when it has one that does not block; else none, and such a
     * candidate keeps its severity)
     */
    preExistingSeverity: t.string,
    /**
     * The people whose rulings count (absent: anyone named by `--by`, as in every log written
     * before signed rulings existed). Under such a policy, a ruling or an extension carries an
     * Ed25519 signature by the key of the principal it names (`ssh-ed25519 AAAA…`), over the run,
     * the line it follows and the ruling itself; the fold checks it (`unsigned-ruling`).
     */
    signers: t.array(t.type({ principal: t.string, key: t.string })),
    /**
     * How many rounds of the run may review the very input the round before reviewed, each a
     * recorded choice (`capture --same-input --reason`). Absent: 0, so a capture of unchanged bytes
     * is refused (`unchanged-input`); in a log written before such captures were refused, none is.
     */
    sameInputRounds: t.number,
    /**
     * From round 2, what a new candidate in a file the last fix did not touch becomes (default
     * `admit`: a finding like any other). `advisory`: a finding that never blocks. `defer`:
     * deferred to a follow-up, never a finding.
     */
    newOutsideFix: t.keyof({ admit: null, advisory: null, defer: null }),
    /**
     * The project's CI checks, by name (absent: rounds and the gate know nothing of checks, as in
     * every log written before they existed). Under a policy with `required` checks, each round's
     * checks are recorded on its captured input before its report (`checks.recorded`); a required
     * check that failed, or was skipped without being in `expectedSkips`, ends the round
     * `ci_failed`, and the gate approves only what they passed on (rules/checks.ts).
     */
    checks: t.type({
      required: t.array(t.string),
      optional: t.array(t.string),
      expectedSkips: t.array(t.string),
    }),
    /** absent in every log written before disputes existed: none was ever recorded there */
    disputes: t.type({ allowed: t.boolean, blockAfter: t.number }),
  }),
]);
