import * as E from 'fp-ts/lib/Either.js';
import {
  type Candidate,
  contributionRecorded,
  type DisputeView,
  type DomainEvent,
  findingId,
  findingsInOrder,
  type Policy,
  PRESETS,
  type RunState,
  roundRecorded,
} from '../../src/index.js';
import type { LoggedEvent } from '../../src/render/run-history.js';
import {
  candidate,
  captured,
  checked,
  decision,
  ended,
  extended,
  opened,
  report,
  ruled,
  sha,
} from '../support/builders.js';
import { decideMerge, fold } from '../support/decider.js';

/**
 * Runs folded from real events whose every reviewer-supplied value is one hostile string `h`:
 * file names, categories, summaries, evidence, principles, reproductions, reviewer and absentee
 * names, reasons, rulings' and extensions' `by` and `why`, a failed attempt's detail. Every event
 * must be accepted: the rules of today take these values, so every renderer must show them safely.
 */

/** Fold events that must all be accepted. */
export const accepted = (events: ReadonlyArray<DomainEvent>): RunState => {
  const { state, trail } = fold(events);
  const refused = trail.find((t) => t.rejection !== null);
  if (refused !== undefined) throw new Error(`refused: ${refused.rejection?.message}`);
  return state;
};

const hostileCandidate = (h: string, over: Partial<Candidate> = {}): Candidate =>
  candidate({
    file: `src/${h}.js`,
    category: h,
    summary: h,
    evidence: h,
    principle: h,
    reproduction: { command: h, expected: h },
    ...over,
  });

/**
 * Blocked at its cap after three rounds: round 1 merged from two reviewers (one named `h`, one
 * absent with detail `h`): a finding both proposed (one candidate merged into it) and two refuted
 * ones; the author disputes the finding with reason `h`; round 2, reported by `h`, keeps the
 * finding open with evidence `h` (upholding the dispute), proposes a minor, which the policy defers
 * to a follow-up (minor is admitted until round 1), and offers one refuted candidate again on its
 * untouched file, kept as refuted before; a person rules on another finding
 * and extends the run; round 3 reviews round 2's input again (`sameInput`, reason `h`), its first
 * attempt fails, its reproduction still fails, and it ends `ci_failed`.
 */
export const HOSTILE_POLICY: Policy = {
  ...PRESETS.default,
  maxRounds: 2,
  sameInputRounds: 1,
  severities: {
    ...PRESETS.default.severities,
    minor: { blocks: false, firstRoundOnly: false, maxAdmitted: null, untilRound: 1 },
  },
};

export const blockedRun = (h: string): DomainEvent[] => {
  const leak = hostileCandidate(h);
  const sameLine = hostileCandidate(h, { category: `${h} again`, summary: `${h} again` });
  const refuted = hostileCandidate(h, {
    line: 30,
    summary: `${h} refuted`,
    confirmed: undefined,
    verdict: 'refuted',
  });
  const other = candidate({ file: `lib/${h}.js`, summary: `${h} other`, category: h, evidence: h });
  const ghost = candidate({
    file: `lib/${h}.js`,
    line: 90,
    summary: `${h} ghost`,
    category: h,
    evidence: h,
    confirmed: undefined,
    verdict: 'refuted',
  });
  const late = hostileCandidate(h, { line: 50, severity: 'minor', summary: `${h} deferred` });
  const start = [
    opened(HOSTILE_POLICY),
    captured(1, 'A'),
    contributionRecorded(report(1, 'A', { candidates: [leak, refuted] }), h),
    contributionRecorded(report(1, 'A', { candidates: [sameLine, other, ghost] }), 'ada'),
  ];
  const merge = decideMerge(accepted(start), [{ reviewer: `${h} absent`, reason: 'missing', detail: h }]);
  if (E.isLeft(merge)) throw new Error(`merge refused: ${merge.left.message}`);
  const round1 = [...start, ...merge.right.events];
  const findings = findingsInOrder(merge.right.state);
  const leakId = findings.find((f) => f.file === leak.file && f.line === leak.line)?.id as string;
  const otherId = findings.find((f) => f.file === other.file)?.id as string;
  return [
    ...round1,
    { type: 'finding.disputed', data: { findingId: leakId, round: 2, reason: h } },
    captured(2, 'B', { touched: [leak.file] }),
    roundRecorded(
      report(2, 'B', {
        reviewer: h,
        candidates: [late, { ...ghost, verdict: 'confirmed' }],
        decisions: [decision(leakId, 'open', h)],
      }),
    ),
    ruled(otherId, 'withdrawn', h, h),
    extended(1, h, h),
    {
      type: 'revision.captured',
      data: { round: 3, inputSha: sha('B'), touchedFiles: [], renames: [], sameInput: { reason: h } },
    },
    { type: 'round.failed', data: { round: 3, inputSha: sha('B'), reason: 'timeout', detail: h } },
    {
      type: 'reproduction.recorded',
      data: { round: 3, inputSha: sha('B'), findingId: leakId, outcome: 'still-fails' },
    },
    ended(3, 'ci_failed', h),
  ];
};

/**
 * Open after two rounds, under a policy whose late severity is named after `h` (admitted until
 * round 1): round 2, reported by `h`, proposes one of it, which is deferred to a follow-up, and one
 * in a file the fix did not touch, which `newOutsideFix: defer` defers too. Every field the deferred
 * candidates hold is `h`'s; the severity reaches them through the policy, as only it can.
 */
export const deferringRun = (h: string): DomainEvent[] => {
  const lateSeverity = `${h} late`;
  const policy: Policy = {
    ...PRESETS.default,
    newOutsideFix: 'defer',
    severities: {
      major: { blocks: true, firstRoundOnly: false, maxAdmitted: null },
      [lateSeverity]: { blocks: false, firstRoundOnly: false, maxAdmitted: null, untilRound: 1 },
    },
  };
  const first = hostileCandidate(h);
  const late = hostileCandidate(h, { line: 50, severity: lateSeverity, summary: `${h} late` });
  const outside = hostileCandidate(h, { file: `lib/${h}.js`, summary: `${h} outside` });
  return [
    opened(policy),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { candidates: [first] })),
    captured(2, 'B', { touched: [first.file] }),
    roundRecorded(
      report(2, 'B', {
        reviewer: h,
        candidates: [late, outside],
        decisions: [decision(findingId(first), 'open', h)],
      }),
    ),
  ];
};

/** Blocked at a cap of one round, then converged by a person's ruling: `by` and `why` are `h`. */
export const convergedRun = (h: string): DomainEvent[] => {
  const only = hostileCandidate(h);
  const round1 = [
    opened({ ...PRESETS.default, maxRounds: 1 }),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { candidates: [only] })),
  ];
  const id = findingsInOrder(accepted(round1)).map((f) => f.id)[0] as string;
  return [...round1, ruled(id, 'withdrawn', h, h)];
};

/**
 * Under a policy requiring `test`: round 1's checks carry links `h` and a check named `h` (one the
 * policy does not name, kept and shown); round 2's `test` fails with the link `h`, which ends the
 * round `ci_failed` with a reason that quotes it. Names and links are checked at the door only, so
 * a log written elsewhere may hold any.
 */
export const checksRun = (h: string): DomainEvent[] => {
  const leak = hostileCandidate(h);
  const policy = {
    ...PRESETS.default,
    maxRounds: 3,
    checks: { required: ['test'], optional: [], expectedSkips: [] },
  };
  return [
    opened(policy),
    captured(1, 'A'),
    checked(1, 'A', [
      { name: 'test', state: 'passed', url: h },
      { name: h, state: 'failed', url: h },
    ]),
    roundRecorded(report(1, 'A', { candidates: [leak] })),
    captured(2, 'B', { touched: [leak.file] }),
    checked(2, 'B', [
      { name: 'test', state: 'failed', url: h },
      { name: h, state: 'skipped' },
    ]),
  ];
};

/** The events as the log holds them, each appended by `by`. */
export const logged = (events: ReadonlyArray<DomainEvent>, by: string): LoggedEvent[] =>
  events.map((e, i) => ({ ...e, seq: i + 1, at: '2025-01-01T00:00:00.000Z', by }));

/** A round's tally for a hand-built view: counts are numbers, nothing a reviewer writes. */
export const TALLY = {
  opened: 1,
  fixed: 1,
  withdrawn: 0,
  reopened: 0,
  deferred: 0,
  stillOpen: 1,
  blockingOpen: 1,
  filesChanged: 1,
} as const;

/** A deferred candidate as the views show it, with `h` in every field a reviewer writes. */
export const deferredWith = (h: string, id: string, reason: 'until-round' | 'outside-fix' = 'until-round') =>
  ({
    id,
    round: 3,
    file: h,
    line: 7,
    section: null,
    citation: h,
    category: h,
    severity: h,
    summary: h,
    evidence: h,
    reviewers: [h, h],
    reason,
    untilRound: reason === 'until-round' ? 2 : null,
  }) as const;

/** A dispute of finding `id` for `round`, every text `h`, as `explain` and `feedback` list it. */
export const disputeWith = (
  h: string,
  id: string,
  round: number,
  ruling: DisputeView['ruling'],
  findingStatus: DisputeView['findingStatus'] = 'open',
): DisputeView => ({
  findingId: id,
  citation: h,
  severity: h,
  summary: h,
  blocking: true,
  findingStatus,
  round,
  reason: h,
  ruling,
});
