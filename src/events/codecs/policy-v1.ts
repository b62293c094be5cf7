import * as t from 'io-ts';

const SeverityRule = t.intersection([
  t.type({
    blocks: t.boolean,
    firstRoundOnly: t.boolean,
    maxAdmitted: t.union([t.number, t.null]),
  }),
  /** absent in every log written before rising floors existed: every round admits */
  t.partial({ untilRound: t.number }),
]);

/** The policy as pinned in `run.opened`. */
export const PolicyCodecV1 = t.intersection([
  t.type({
    name: t.string,
    maxRounds: t.number,
    severities: t.record(t.string, SeverityRule),
    notExaminedRequired: t.boolean,
    untouchedDecisions: t.array(t.keyof({ fixed: null, open: null, withdrawn: null })),
  }),
  // optional with a stated default, so a log written before they existed means what it meant
  t.partial({
    citations: t.keyof({ required: null, optional: null }),
    bind: t.keyof({ commit: null, tree: null }),
    experts: t.array(t.string),
    mergeWithinLines: t.number,
    /** absent in every log written before stalls existed: those runs never stall */
    stallRounds: t.number,
    plausible: t.keyof({ blocks: null, advisory: null, 'advisory-outside-fix': null }),
    preExistingSeverity: t.string,
    /** absent in every log written before signed rulings existed: anyone named rules there */
    signers: t.array(t.type({ principal: t.string, key: t.string })),
    /** absent in every log written before same-input rounds were refused: there, none is */
    sameInputRounds: t.number,
    newOutsideFix: t.keyof({ admit: null, advisory: null, defer: null }),
    /** absent in every log written before CI checks existed: their rounds and gate know nothing of checks */
    checks: t.type({
      required: t.array(t.string),
      optional: t.array(t.string),
      expectedSkips: t.array(t.string),
    }),
    /** absent in every log written before disputes existed: none was ever recorded there */
    disputes: t.type({ allowed: t.boolean, blockAfter: t.number }),
  }),
]);
