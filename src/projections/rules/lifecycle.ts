import * as E from '#either';
import { actorNameProblem } from '../../events/actor-name.js';
import type { RunOpened } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import { oneLineProblem } from '../../events/one-line.js';
import { COST_KEYS, type Policy } from '../../events/policy.js';
import { formatPath, type Path, type Rejection, rejection } from '../../events/rejection.js';
import { parseSshEd25519 } from '../../events/ssh-public-key.js';
import { isFinal, type Run, type RunState } from '../state.js';
import { amountIsReal } from './cost-bounds.js';
import { type Check, fail, isBlank, ok } from './rule-answer.js';

/** Rounds, captures and failures are only accepted by a run that is opened and not yet final. */
export const acceptingRounds = (state: RunState): E.Either<Rejection, Run> => {
  if (state.run === null)
    return fail('not-opened', 'the run has no run.opened event: open it before anything else');
  if (isFinal(state.status)) return E.left(finalRun(state, state.run));
  return E.right(state.run);
};

/**
 * What a final run says to anything that would add a round to it, and what can happen instead: a
 * converged run is done, and new commits are a new run's to review; a blocked run takes more rounds
 * only when a person extends it, or converges when a person rules on what keeps it blocked.
 */
const finalRun = (state: RunState, { runId }: Run): Rejection =>
  state.status === 'converged'
    ? rejection(
        'run-final',
        `run ${runId} converged after round ${state.round}: it is final and takes no more rounds; to review new commits, open a new run for them`,
        [],
        undefined,
        stepTo('open', runId, { newRun: true }),
      )
    : rejection(
        'run-final',
        `run ${runId} is blocked after round ${state.round}: it takes no more rounds unless a person extends it, or rules on the findings that keep it blocked`,
        [],
        undefined,
        { ...stepTo('extend', runId), or: stepTo('rule', runId) },
      );

export const notYetOpened = (state: RunState): Check =>
  state.run === null
    ? ok
    : fail('already-opened', `run ${state.run.runId} is already open: a run is opened exactly once`, [
        'type',
      ]);

/** The most rounds a policy may allow: a bound on the run, far past any real review loop. */
export const MAX_ROUNDS = 1_000_000;

/** One field of a policy as its rule sees it: where it is, its value, whether it holds, what would. */
type Field = Readonly<{ path: Path; value: unknown; holds: boolean; expected: string }>;

const field = (path: Path, value: unknown, holds: boolean, expected: string): Field => ({
  path,
  value,
  holds,
  expected,
});

const integerFrom = (n: number, min: number, max = Number.MAX_SAFE_INTEGER): boolean =>
  Number.isInteger(n) && n >= min && n <= max;
const names = (list: ReadonlyArray<string>): boolean => list.every((s) => !isBlank(s));
const distinct = (list: ReadonlyArray<string>): boolean => new Set(list).size === list.length;
/** CI check names are shown one a line (next, the gate's refusal, the trail) and matched exactly. */
const checkNames = (list: ReadonlyArray<string>): boolean =>
  names(list) && distinct(list) && list.every((s) => oneLineProblem(s) === undefined);

/**
 * Every value rule of a policy, one line a field, in the order a refusal names them. The codecs
 * (zod for a policy file, io-ts for a log) check only its shape; what the values must be is here,
 * for a policy file, a preset, a library caller and a log alike. A new policy field adds its line.
 */
const POLICY_FIELDS: ReadonlyArray<(p: Policy) => ReadonlyArray<Field>> = [
  (p) => [field(['name'], p.name, !isBlank(p.name), 'a non-empty name')],
  (p) => [
    field(
      ['maxRounds'],
      p.maxRounds,
      integerFrom(p.maxRounds, 1, MAX_ROUNDS),
      `an integer from 1 to ${MAX_ROUNDS}`,
    ),
  ],
  (p) => [
    field(['severities'], p.severities, Object.keys(p.severities).length > 0, 'at least one severity'),
    field(
      ['severities'],
      Object.keys(p.severities),
      names(Object.keys(p.severities)),
      'non-empty severity names',
    ),
  ],
  (p) =>
    Object.entries(p.severities).map(([name, rule]) =>
      field(
        ['severities', name, 'maxAdmitted'],
        rule.maxAdmitted,
        rule.maxAdmitted === null || integerFrom(rule.maxAdmitted, 0),
        'null or an integer >= 0',
      ),
    ),
  (p) =>
    Object.entries(p.severities).flatMap(([name, rule]) => [
      field(
        ['severities', name, 'untilRound'],
        rule.untilRound,
        rule.untilRound === undefined || integerFrom(rule.untilRound, 1, MAX_ROUNDS),
        `an integer from 1 to ${MAX_ROUNDS} (the last round it is admitted in), or absent`,
      ),
      field(
        ['severities', name, 'untilRound'],
        rule.untilRound,
        rule.untilRound === undefined || !rule.firstRoundOnly,
        'absent when firstRoundOnly is true (firstRoundOnly is untilRound 1 with late candidates suppressed: say one)',
      ),
    ]),
  (p) => [
    field(
      ['sameInputRounds'],
      p.sameInputRounds,
      p.sameInputRounds === undefined || integerFrom(p.sameInputRounds, 0, MAX_ROUNDS),
      `an integer from 0 to ${MAX_ROUNDS} (rounds that may review unchanged input), or absent for 0`,
    ),
  ],
  (p) => [
    field(['stages'], p.stages, names(p.stages) && distinct(p.stages), 'distinct, non-empty stage names'),
  ],
  (p) =>
    COST_KEYS.map((unit) => {
      const limit = p.budget[unit];
      return field(
        ['budget', unit],
        limit,
        limit === undefined || amountIsReal(limit),
        'a finite number >= 0',
      );
    }),
  (p) => [
    field(
      ['mergeWithinLines'],
      p.mergeWithinLines,
      p.mergeWithinLines === undefined || integerFrom(p.mergeWithinLines, 0),
      'an integer >= 0 (lines)',
    ),
  ],
  (p) =>
    (p.signers ?? []).flatMap((s, i) => [
      field(
        ['signers', i, 'principal'],
        s.principal,
        actorNameProblem(s.principal) === undefined,
        'a name: one printable line of 1 to 256 characters',
      ),
      field(
        ['signers', i, 'key'],
        s.key,
        typeof parseSshEd25519(s.key) !== 'string',
        'an Ed25519 public key as a .pub file holds it: ssh-ed25519 AAAA…',
      ),
    ]),
  (p) => [
    field(
      ['signers'],
      p.signers,
      p.signers === undefined || (p.signers.length > 0 && distinct(p.signers.map((s) => s.principal))),
      'at least one signer, each principal once (or absent: anyone named rules)',
    ),
  ],
  (p) => [
    field(
      ['stallRounds'],
      p.stallRounds,
      p.stallRounds === undefined || integerFrom(p.stallRounds, 2),
      'an integer >= 2 (the rounds a blocking finding may be decided open in a row; one is an ordinary review), or absent to turn stalls off',
    ),
  ],
  (p) => [
    field(
      ['disputes', 'blockAfter'],
      p.disputes?.blockAfter,
      p.disputes === undefined || integerFrom(p.disputes.blockAfter, 1, MAX_ROUNDS),
      `an integer from 1 to ${MAX_ROUNDS} (the upheld disputes of one blocking finding that block the run)`,
    ),
  ],
  (p) => {
    if (p.checks === undefined) return [];
    const { required, optional, expectedSkips } = p.checks;
    const named = new Set([...required, ...optional]);
    return [
      field(
        ['checks', 'required'],
        required,
        checkNames(required),
        'distinct, non-empty one-line check names',
      ),
      field(
        ['checks', 'optional'],
        optional,
        checkNames(optional),
        'distinct, non-empty one-line check names',
      ),
      field(
        ['checks', 'optional'],
        optional.filter((name) => required.includes(name)),
        optional.every((name) => !required.includes(name)),
        'names not also required (a check is required or optional, not both)',
      ),
      field(
        ['checks', 'expectedSkips'],
        expectedSkips,
        distinct(expectedSkips) && expectedSkips.every((name) => named.has(name)),
        'distinct names of required or optional checks',
      ),
    ];
  },
  (p) => [
    field(
      ['experts'],
      p.experts,
      p.experts === undefined || (names(p.experts) && distinct(p.experts)),
      'distinct, non-empty reviewer names',
    ),
  ],
  (p) => [
    field(
      ['blockingCategories'],
      p.blockingCategories,
      p.blockingCategories === null || names(p.blockingCategories),
      'null (any category) or non-empty category names',
    ),
  ],
  (p) => [
    field(
      ['principleCategories'],
      p.principleCategories,
      names(p.principleCategories),
      'non-empty category names',
    ),
  ],
];

const shown = (value: unknown): string =>
  typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));

/**
 * Whether a policy's values are usable: the first field that breaks its rule refuses the policy
 * (`invalid-policy`), naming the field, what it holds and what it must be.
 */
export const policyIsUsable = (policy: Policy): Check => {
  for (const fieldsOf of POLICY_FIELDS) {
    for (const f of fieldsOf(policy)) {
      if (!f.holds) {
        return fail(
          'invalid-policy',
          `${formatPath(['policy', ...f.path])} must be ${f.expected}, got ${shown(f.value)}`,
          ['policy', ...f.path],
        );
      }
    }
  }
  return preExistingSeverityIsAdvisory(policy);
};

/** A pre-existing candidate is re-graded to a severity the policy knows, and one that never blocks. */
const preExistingSeverityIsAdvisory = (policy: Policy): Check => {
  const name = policy.preExistingSeverity;
  if (name === undefined || policy.severities[name]?.blocks === false) return ok;
  return fail(
    'invalid-policy',
    `policy.preExistingSeverity ${JSON.stringify(name)} must be a severity of the policy that does not block (${
      Object.hasOwn(policy.severities, name)
        ? 'it blocks'
        : `known: ${Object.keys(policy.severities).join(', ')}`
    })`,
    ['policy', 'preExistingSeverity'],
  );
};

/** `run.opened`: once, with a usable policy; the run's rules are pinned from here on. */
export const onRunOpened = (state: RunState, event: RunOpened): E.Either<Rejection, RunState> => {
  const fresh = notYetOpened(state);
  if (E.isLeft(fresh)) return fresh;
  const usable = policyIsUsable(event.data.policy);
  if (E.isLeft(usable)) return usable;
  const { runId, policy, subject, consent } = event.data;
  if (isBlank(runId)) return fail('empty-field', 'run.opened runId is empty: a run needs an id', ['runId']);
  return E.right({ ...state, status: 'open', run: { runId, policy, subject, consent } });
};
