import {
  type Candidate,
  type Contribution,
  type Dispute,
  type DomainEvent,
  disputeBlockAfter,
  type FindingStatus,
  type FindingStep,
  findingId,
  type MergedFrom,
  mergeContributions,
  type Policy,
  type RevisionCapturedData,
  type RoundOutcome,
  type RunStatus,
} from '../../src/index.js';
import { admitCandidates } from '../../src/projections/rules/admission.js';
import { admittedSeverity, plausibleIsAdvisory } from '../../src/projections/rules/verification.js';
import type { Place, Stall, StallWhy } from '../../src/projections/state.js';
import { toArray } from '../../src/projections/vec.js';

/**
 * A reference fold, kept in the tests only: the findings, the verdict and the round of a run, by
 * the rules of docs/design.md, over plain records and arrays, recomputing everything by scanning
 * every finding each time. Nothing in it is indexed or persistent, so it is slow and obviously
 * right; the fold is checked against it (property-tests/reference-fold.test.ts).
 *
 * It models what reads or changes findings: renames, line moves, a verifier's placement, decisions,
 * admission (through the pure `admitCandidates`, which never sees the findings), corroboration,
 * rulings, extensions, stalls, disputes, candidates refuted before and the verdict; and it judges
 * the rules that read findings (`referenceRefusal`). The rules that never
 * read a finding (binding, stages, budgets, citations, the merge's equality) it leaves to `evolve`:
 * it applies an event only when the fold accepted it.
 */
export type ReferenceFinding = {
  id: string;
  file: string;
  /** where it is now: its cited line, followed through every capture's moves */
  line: number | null;
  /** where it was cited, once it stands elsewhere */
  cited: Place | null;
  outdated: boolean;
  correction: Readonly<{ by: string; evidence: string }> | null;
  /** its candidate's evidence: what a candidate offered again may repeat */
  evidence: string;
  severity: string;
  blocking: boolean;
  /** whether its candidate gave a reproduction to re-run */
  reproducible: boolean;
  status: FindingStatus;
  openedRound: number;
  steps: FindingStep[];
  reviewers: string[];
  mergedFrom: MergedFrom[];
  disputes: Dispute[];
};

/** A refuted candidate, or one refuted before, as the record keeps it. */
export type ReferenceRefuted = {
  id: string;
  round: number;
  file: string;
  by: ReadonlyArray<string>;
  evidence: string;
  claim: string;
  before?: { round: number; how: 'refuted' | 'withdrawn' };
};

export type ReferenceState = {
  policy: Policy | null;
  status: RunStatus;
  round: number;
  capture: RevisionCapturedData | null;
  /** in the order they opened (insertion order: ids are never integer-like keys) */
  findings: Record<string, ReferenceFinding>;
  admitted: Record<string, number>;
  extraRounds: number;
  /** the round of the last extension (stalls count only steps after it) */
  since: number;
  lastResult: RoundOutcome['result'] | null;
  stall: Stall | null;
  contributions: Contribution[];
  /** ids disputed and not yet ruled on, in the order disputed */
  disputed: string[];
  refuted: ReferenceRefuted[];
  /** by file: the last recorded round whose capture touched it (listed, renamed from or to) */
  touchedIn: Record<string, number>;
};

export const referenceStart = (): ReferenceState => ({
  policy: null,
  status: 'unopened',
  round: 0,
  capture: null,
  findings: {},
  admitted: {},
  extraRounds: 0,
  since: 0,
  lastResult: null,
  stall: null,
  contributions: [],
  disputed: [],
  refuted: [],
  touchedIn: {},
});

/** The codes of the rules that read findings: the ones the reference judges for itself. */
export const FINDING_RULES: ReadonlySet<string> = new Set([
  'unknown-finding',
  'ambiguous-id',
  'closed-finding',
  'not-reopenable',
  'stale-evidence',
  'existing-finding',
  'untouched-decision',
  'missing-decision',
  'verdict-mismatch',
  'no-reproduction',
  'invalid-move',
  'duplicate-dispute',
  'undecided-dispute',
]);

const all = (s: ReferenceState): ReferenceFinding[] => Object.values(s.findings);

const blockingOpen = (s: ReferenceState): boolean => all(s).some((f) => f.status === 'open' && f.blocking);

const verdictOf = (
  s: ReferenceState,
  round: number,
  result: RoundOutcome['result'],
  stalled: boolean,
): 'open' | 'converged' | 'blocked' => {
  if (!blockingOpen(s) && result === 'complete') return 'converged';
  return round >= (s.policy?.maxRounds ?? 0) + s.extraRounds || stalled ? 'blocked' : 'open';
};

/** How `namedFinding` resolves a reference: the finding, or the code it refuses with. */
const named = (s: ReferenceState, ref: string): ReferenceFinding | 'unknown-finding' | 'ambiguous-id' => {
  const exact = s.findings[ref];
  if (exact !== undefined && Object.hasOwn(s.findings, ref)) return exact;
  const prefix = ref.toLowerCase();
  if (!/^[0-9a-f]{8,64}$/.test(prefix)) return 'unknown-finding';
  return Object.keys(s.findings).filter((id) => id.startsWith(prefix)).length > 1
    ? 'ambiguous-id'
    : 'unknown-finding';
};

/** The findings once a capture applies: files along its renames, lines along its moves, the cited place kept. */
const renamed = (s: ReferenceState, capture: RevisionCapturedData): Record<string, ReferenceFinding> => {
  const to = new Map(capture.renames.map((r) => [r.from, r.to]));
  const moves = new Map((capture.moves ?? []).map((m) => [m.id, m]));
  const out: Record<string, ReferenceFinding> = {};
  for (const f of all(s)) {
    const file = to.get(f.file) ?? f.file;
    const move = moves.get(f.id);
    const line = move?.to ?? f.line;
    const moved = file !== f.file || line !== f.line;
    out[f.id] = {
      ...f,
      file,
      line,
      cited: moved && f.cited === null ? { file: f.file, line: f.line } : f.cited,
      outdated: f.outdated || move?.outdated === true,
    };
  }
  return out;
};

/** Which rule that reads findings refuses a capture's moves, scanning every finding: the fold's order. */
const movesRefusal = (s: ReferenceState, capture: RevisionCapturedData): string | null => {
  const touched = touchedOf(capture);
  const to = new Map(capture.renames.map((r) => [r.from, r.to]));
  const seen = new Set<string>();
  for (const m of capture.moves ?? []) {
    const isLine = (n: number) => Number.isInteger(n) && n >= 1;
    if (!isLine(m.from) || !isLine(m.to)) return null; // invalid-line, a rule that reads no finding
    if (!Object.hasOwn(s.findings, m.id)) return 'unknown-finding';
    const f = s.findings[m.id] as ReferenceFinding;
    if (seen.has(m.id)) return 'invalid-move';
    seen.add(m.id);
    if (f.status !== 'open' || f.line === null || !touched.has(to.get(f.file) ?? f.file) || m.from !== f.line)
      return 'invalid-move';
  }
  return null;
};

const touchedOf = (capture: RevisionCapturedData): Set<string> =>
  new Set([...capture.touchedFiles, ...capture.renames.map((r) => r.to)]);

const contributionsOfRound = (s: ReferenceState): Contribution[] =>
  s.contributions.filter((c) => c.round === s.round + 1 && c.report.inputSha === s.capture?.inputSha);

const candidatesRefusal = (s: ReferenceState, candidates: ReadonlyArray<Candidate>): string | null => {
  for (const c of candidates) {
    if (c.sameAs !== undefined) {
      const target = named(s, c.sameAs);
      if (typeof target === 'string') return target;
      if (target.status !== 'open') return 'closed-finding';
    } else if (Object.hasOwn(s.findings, findingId(c))) {
      const f = s.findings[findingId(c)] as ReferenceFinding;
      if (f.status !== 'withdrawn' || s.capture === null || repeated(s, s.capture, c) === null)
        return 'existing-finding';
    }
  }
  return null;
};

/** The files a capture changed: listed, and both sides of each rename. */
const changedBy = (capture: RevisionCapturedData): string[] => [
  ...capture.touchedFiles,
  ...capture.renames.flatMap((r) => [r.from, r.to]),
];

/**
 * The refutation a candidate repeats, found by scanning every refuted record and the finding of
 * its id: the latest earlier refutation or withdrawal, when its file is unchanged since and its
 * evidence is one said before on that id.
 */
const repeated = (
  s: ReferenceState,
  capture: RevisionCapturedData,
  c: Candidate,
): { round: number; how: 'refuted' | 'withdrawn'; evidence: string } | null => {
  if (c.sameAs !== undefined || c.verdict === 'refuted') return null;
  const id = findingId(c);
  const records = s.refuted.filter((r) => r.id === id);
  const f = s.findings[id];
  const withdrawal = f?.status === 'withdrawn' ? f.steps.at(-1) : undefined;
  const earlier = [
    ...records.map((r) => ({
      round: r.before?.round ?? r.round,
      how: r.before?.how ?? ('refuted' as const),
      evidence: r.evidence,
    })),
    ...(withdrawal === undefined
      ? []
      : [{ round: withdrawal.round, how: 'withdrawn' as const, evidence: withdrawal.evidence ?? '' }]),
  ];
  if (earlier.length === 0) return null;
  const latest = earlier.reduce((a, b) => (b.round >= a.round ? b : a));
  if (changedBy(capture).includes(c.file) || (s.touchedIn[c.file] ?? 0) > latest.round) return null;
  const said = [
    ...records.flatMap((r) => [r.claim, r.evidence]),
    ...(withdrawal === undefined || f === undefined
      ? []
      : [f.evidence, ...f.steps.flatMap((step) => step.evidence ?? [])]),
  ].map((e) => e.trim());
  return said.includes(c.evidence.trim()) ? latest : null;
};

const fits = (d: Readonly<{ status: string; evidence: string }>, f: ReferenceFinding): string | null =>
  d.status === 'reopened'
    ? f.status !== 'fixed'
      ? 'not-reopenable'
      : f.steps.some((step) => step.evidence?.trim() === d.evidence.trim())
        ? 'stale-evidence'
        : null
    : f.status === 'open'
      ? null
      : 'closed-finding';

/** What the stall rule says of a round, by filtering each decided finding's steps afresh. */
const stallAfter = (
  s: ReferenceState,
  round: number,
  decisions: ReadonlyArray<Readonly<{ id: string; status: string }>>,
  disputed: ReadonlyArray<string>,
): Stall | null => {
  const rounds = s.policy?.stallRounds;
  const found: Array<{ id: string; why: StallWhy }> = [];
  for (const d of rounds === undefined ? [] : decisions) {
    const f = s.findings[d.id];
    if (f === undefined || !f.blocking || f.status !== 'open') continue;
    const steps = f.steps.filter((step) => step.round > s.since);
    const tail = steps.slice(-(rounds as number));
    const streak =
      tail.length === rounds &&
      tail.every(
        (step, i) =>
          step.how === 'decided' &&
          step.status === 'open' &&
          step.round === round - (rounds as number) + 1 + i,
      );
    if (d.status === 'open' && streak) found.push({ id: d.id, why: 'kept-open' });
    if (d.status === 'reopened' && steps.filter((step) => step.how === 'reopened').length >= 2)
      found.push({ id: d.id, why: 'reopened-twice' });
  }
  // disputes the round ruled on: a blocking finding upheld past the count since the last extension
  for (const id of disputed) {
    const f = s.findings[id];
    if (f === undefined || !f.blocking || f.status !== 'open' || s.policy === null) continue;
    const upheld = f.disputes.filter((x) => x.ruling?.status === 'open' && x.ruling.round > s.since);
    if (upheld.length >= disputeBlockAfter(s.policy)) found.push({ id, why: 'disputed' });
  }
  return found.length === 0 ? null : { round, findings: found };
};

type RoundEvent = Extract<DomainEvent, { type: 'round.recorded' }>;

/** A recorded round applied to the reference: everything but whether it was allowed. */
const roundApplied = (s: ReferenceState, event: RoundEvent): ReferenceState => {
  const { report, result } = event.data;
  const policy = s.policy as Policy;
  const capture = s.capture as RevisionCapturedData;
  const round = report.round;
  const touched = touchedOf(capture);
  const next: ReferenceState = { ...s, findings: renamed(s, capture) };
  const contributions = contributionsOfRound(s);
  const [first, ...rest] = contributions;
  const merge =
    first === undefined
      ? null
      : mergeContributions(policy, [first, ...rest], (c) => repeated(s, capture, c) !== null);
  const reviewer = report.reviewer ?? 'anonymous';
  const identified = report.candidates.map((candidate, index) => ({
    candidate,
    id: findingId(candidate),
    index,
  }));
  const offered = identified.filter(({ candidate: c }) => c.verdict !== 'refuted');
  // candidates that repeat a refutation on unchanged code
  const held: ReferenceRefuted[] = offered.flatMap(({ candidate: c, id }) => {
    const earlier = repeated(s, capture, c);
    if (earlier === null) return [];
    const by = merge?.provenance[id]?.reviewers ?? [reviewer];
    return [
      {
        id,
        round,
        file: c.file,
        by,
        evidence: earlier.evidence,
        claim: c.evidence,
        before: { round: earlier.round, how: earlier.how },
      },
    ];
  });
  const heldIds = new Set(held.map((r) => r.id));
  const refutedNow: ReferenceRefuted[] = identified
    .filter(({ candidate: c }) => c.verdict === 'refuted')
    .map(({ candidate: c, id }) => {
      const why = merge?.refuted[id] ?? { by: [reviewer], evidence: c.evidence };
      return { id, round, file: c.file, by: why.by, evidence: why.evidence, claim: c.evidence };
    });
  const admission = admitCandidates(
    {
      policy,
      round,
      alreadyAdmitted: s.admitted,
      advisory: (c) => plausibleIsAdvisory(policy, round, c, (file) => touched.has(file)),
      touched: (file) => touched.has(file),
    },
    offered
      .filter(({ candidate: c, id }) => c.sameAs === undefined && !heldIds.has(id))
      .map((x) => {
        // a verifier's placement: the finding opens there, under the id its finder's place gave it
        const placed = merge?.provenance[x.id]?.placed;
        const at = placed === undefined ? {} : { file: placed.file, line: placed.line };
        return {
          ...x,
          candidate: { ...x.candidate, ...at, severity: admittedSeverity(policy, x.candidate) },
        };
      }),
  );
  for (const d of report.decisions) {
    const f = next.findings[d.id] as ReferenceFinding;
    const status = d.status === 'reopened' ? 'open' : d.status;
    const how = d.status === 'reopened' ? 'reopened' : 'decided';
    // a disputed finding's decision is the ruling on its dispute
    const disputes = s.disputed.includes(d.id)
      ? f.disputes.map((x, i) =>
          i === f.disputes.length - 1 ? { ...x, ruling: { round, status, evidence: d.evidence } } : x,
        )
      : f.disputes;
    next.findings[d.id] = {
      ...f,
      status,
      steps: [...f.steps, { round, how, status, evidence: d.evidence }],
      disputes,
    };
  }
  for (const f of admission.opened) {
    const p = merge?.provenance[f.id];
    const placed = p?.placed;
    next.findings[f.id] = {
      id: f.id,
      file: f.file,
      line: f.line,
      cited: placed?.cited ?? null,
      outdated: false,
      correction: placed === undefined ? null : { by: placed.by, evidence: placed.evidence },
      evidence: f.evidence,
      severity: f.severity,
      blocking: f.blocking,
      reproducible: f.reproduction !== null,
      status: f.status,
      openedRound: f.openedRound,
      steps: toArray(f.steps),
      reviewers: p === undefined ? [] : [...p.reviewers],
      mergedFrom: p === undefined ? [] : [...p.mergedFrom],
      disputes: [],
    };
  }
  for (const { candidate: c, id } of offered.filter(({ candidate: c }) => c.sameAs !== undefined)) {
    const target = next.findings[c.sameAs as string] as ReferenceFinding;
    const by = merge?.provenance[id]?.reviewers ?? [reviewer];
    next.findings[target.id] = {
      ...target,
      reviewers: [...new Set([...target.reviewers, ...by])].sort(),
      mergedFrom: [
        ...target.mergedFrom,
        { id, reviewer: by.join(', '), file: c.file, line: c.line ?? null, category: c.category },
        ...(merge?.provenance[id]?.mergedFrom ?? []),
      ],
    };
  }
  const stall = stallAfter(next, round, report.decisions, s.disputed);
  const touchedIn = { ...s.touchedIn };
  for (const file of changedBy(capture)) touchedIn[file] = round;
  return {
    ...next,
    status: verdictOf(next, round, result, stall !== null),
    round,
    capture: null,
    admitted: { ...admission.admitted },
    lastResult: result,
    stall,
    contributions: [],
    disputed: [],
    refuted: [...s.refuted, ...refutedNow, ...held],
    touchedIn,
  };
};

/**
 * Which rule that reads findings refuses `event`, checked in `evolve`'s order, or null when none
 * does (the event may still break a rule that reads no finding: the reference leaves those alone).
 */
export const referenceRefusal = (s: ReferenceState, event: DomainEvent): string | null => {
  switch (event.type) {
    case 'revision.captured':
      return movesRefusal(s, event.data);
    case 'round.recorded': {
      const { report } = event.data;
      const capture = s.capture;
      if (capture === null || s.policy === null) return null;
      const byCandidates = candidatesRefusal(s, report.candidates);
      if (byCandidates !== null) return byCandidates;
      const moved = renamed(s, capture);
      const touched = touchedOf(capture);
      const decided = new Set<string>();
      for (const d of report.decisions) {
        if (decided.has(d.id)) return null; // duplicate-decision, a rule that reads no finding
        decided.add(d.id);
        const f = named({ ...s, findings: moved }, d.id);
        if (typeof f === 'string') return f;
        const unfit = fits(d, f);
        if (unfit !== null) return unfit;
        if (d.evidence.trim() === '') return null; // empty-evidence
        if (
          d.status !== 'reopened' &&
          !touched.has(f.file) &&
          !s.policy.untouchedDecisions.includes(d.status) &&
          !(s.disputed.includes(d.id) && (d.status === 'open' || d.status === 'withdrawn'))
        )
          return 'untouched-decision';
      }
      if (Object.values(moved).some((f) => f.status === 'open' && touched.has(f.file) && !decided.has(f.id)))
        return 'missing-decision';
      if (s.disputed.some((id) => !decided.has(id))) return 'undecided-dispute';
      const after = roundApplied(s, event);
      for (const c of report.candidates)
        if (c.sameAs !== undefined && c.verdict !== 'refuted' && after.findings[c.sameAs]?.status !== 'open')
          return 'closed-finding';
      if (report.verdict !== undefined && report.verdict !== after.status) return 'verdict-mismatch';
      return null;
    }
    case 'contribution.recorded': {
      const byCandidates = candidatesRefusal(s, event.data.report.candidates);
      if (byCandidates !== null) return byCandidates;
      const seen = new Set<string>();
      for (const d of event.data.report.decisions) {
        const f = named(s, d.id);
        if (typeof f === 'string') return f;
        const unfit = fits(d, f);
        if (unfit !== null) return unfit;
        if (seen.has(d.id)) return null;
        seen.add(d.id);
      }
      return null;
    }
    case 'finding.ruled': {
      const f = named(s, event.data.findingId);
      if (typeof f === 'string') return f;
      return f.status === 'open' ? null : 'closed-finding';
    }
    case 'reproduction.recorded': {
      const f = named(s, event.data.findingId);
      if (typeof f === 'string') return f;
      return f.reproducible ? null : 'no-reproduction';
    }
    case 'finding.disputed': {
      // the rules before it read no finding (the run, the round, the policy): the fold's to judge
      const f = named(s, event.data.findingId);
      if (typeof f === 'string') return f;
      if (f.status !== 'open') return 'closed-finding';
      if (event.data.reason.trim() === '') return null; // empty-field, a rule that reads no finding
      return f.disputes.at(-1)?.ruling === null ? 'duplicate-dispute' : null;
    }
    default:
      return null;
  }
};

/** A round that ended without a report: it counts toward the cap, and never converges. */
const endedWithout = (s: ReferenceState, round: number, result: RoundOutcome['result']): ReferenceState => ({
  ...s,
  status: verdictOf(s, round, result, false),
  round,
  capture: null,
  lastResult: result,
  contributions: [],
});

/** `event` applied to the reference, once the fold accepted it. */
export const referenceStep = (s: ReferenceState, event: DomainEvent): ReferenceState => {
  switch (event.type) {
    case 'run.opened':
      return { ...s, policy: event.data.policy, status: 'open' };
    case 'revision.captured':
      return { ...s, capture: event.data };
    case 'round.recorded':
      return roundApplied(s, event);
    case 'round.ended':
      return endedWithout(s, event.data.round, event.data.result);
    case 'checks.recorded': {
      // a required check that failed, or was skipped and may not be, ends the round ci_failed
      const named = s.policy?.checks;
      const fails = event.data.checks.some(
        (c) =>
          named?.required.includes(c.name) === true &&
          (c.state === 'failed' || (c.state === 'skipped' && !named.expectedSkips.includes(c.name))),
      );
      return fails ? endedWithout(s, event.data.round, 'ci_failed') : s;
    }
    case 'finding.ruled': {
      const { findingId: id, status, why, by } = event.data;
      const f = s.findings[id] as ReferenceFinding;
      const pending = s.disputed.includes(id);
      const findings = {
        ...s.findings,
        [id]: {
          ...f,
          status,
          steps: [...f.steps, { round: s.round, how: 'ruled' as const, status, evidence: why, by }],
          // a person's ruling answers a dispute no round ruled on
          disputes: pending
            ? f.disputes.map((x, i) =>
                i === f.disputes.length - 1
                  ? { ...x, ruling: { round: s.round, status, evidence: why, by } }
                  : x,
              )
            : f.disputes,
        },
      };
      const next = { ...s, findings, disputed: s.disputed.filter((x) => x !== id) };
      return !blockingOpen(next) && s.lastResult === 'complete' ? { ...next, status: 'converged' } : next;
    }
    case 'rounds.extended':
      return {
        ...s,
        status: 'open',
        stall: null,
        extraRounds: s.extraRounds + event.data.rounds,
        since: s.round,
      };
    case 'finding.disputed': {
      const { findingId: id, round, reason } = event.data;
      const f = s.findings[id] as ReferenceFinding;
      return {
        ...s,
        findings: {
          ...s.findings,
          [id]: { ...f, disputes: [...f.disputes, { round, reason, ruling: null }] },
        },
        disputed: [...s.disputed, id],
      };
    }
    case 'contribution.recorded':
      return {
        ...s,
        contributions: [
          ...s.contributions,
          {
            round: event.data.round,
            expert: event.data.expert ?? null,
            reportSha: event.data.reportSha,
            report: event.data.report,
          },
        ],
      };
    default:
      return s;
  }
};
