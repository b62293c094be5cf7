import { findingId } from '../../events/finding-id.js';
import { blocksFor, mergeWithinLinesOf, type Policy } from '../../events/policy.js';
import type { Candidate, Decision, RoundReport } from '../../events/report-types.js';
import type { Contribution, MergedFrom } from '../state.js';
import {
  asRuled,
  ownAssessmentOf,
  type Placement,
  placementOf,
  type Ruled,
  rulingsById,
} from './verification.js';

/** How an anonymous reviewer is named in corroboration and `mergedFrom`. */
export const ANONYMOUS = 'anonymous';

export const reviewerOf = (c: Pick<Contribution, 'expert'>): string => c.expert ?? ANONYMOUS;

/** Where a merged finding came from: who proposed it, and which other candidates it absorbed. */
export type Provenance = Readonly<{
  reviewers: ReadonlyArray<string>;
  mergedFrom: ReadonlyArray<MergedFrom>;
  /** where a verifier placed it, when its finder cited it elsewhere */
  placed?: Placement;
}>;

/** Why a refuted candidate was dropped: who refuted it (its verifiers, or its own reviewer), and their evidence. */
export type Refutation = Readonly<{ by: ReadonlyArray<string>; evidence: string }>;

export type Merge = Readonly<{
  /** the round report the merge stands for: what `round.recorded` must carry */
  report: RoundReport;
  /** by the id of each merged candidate */
  provenance: Readonly<Record<string, Provenance>>;
  /** by the id of each refuted candidate (in the report with `verdict: "refuted"`, never a finding) */
  refuted: Readonly<Record<string, Refutation>>;
}>;

type Member = Readonly<{
  /** where it comes in the merge's order: contributions in `mergeOrder`, candidates in report order */
  at: number;
  contribution: number;
  reviewer: string;
  candidate: Candidate;
  id: string;
  /** the verifiers' rulings on this candidate's key, if any */
  rulings: ReadonlyArray<Ruled>;
  /** the candidate as its rulings leave it (itself when none) */
  effective: Candidate;
}>;

const assessmentOfMember = (m: Member) => ownAssessmentOf(m.effective);

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order the merge reads contributions in: by report hash, then reviewer name. Not arrival
 * order, so the same reports make the same findings whichever finished first (`collect` appends
 * them as they arrive); and not reviewer name first, so a second reviewer handing in a copy of a
 * report sits next to it and changes nothing but corroboration. "Earliest contribution" in the
 * rules below means first in this order.
 */
export const mergeOrder = (contributions: ReadonlyArray<Contribution>): ReadonlyArray<Contribution> =>
  [...contributions].sort(
    (a, b) => compare(a.reportSha, b.reportSha) || compare(reviewerOf(a), reviewerOf(b)),
  );

/**
 * Two candidates from different contributions are one finding when they have the same id; when
 * they cite the same file and line (or section), whatever their category; or when they are of the
 * same category in the same file within `within` lines of each other.
 */
const sameFinding = (a: Member, b: Member, within: number): boolean => {
  if (a.id === b.id) return true;
  const x = a.candidate;
  const y = b.candidate;
  // a candidate linked to an existing finding merges only with others linked to it
  if (x.sameAs !== undefined || y.sameAs !== undefined) return x.sameAs === y.sameAs;
  if (x.file !== y.file) return false;
  if (x.line !== undefined && y.line !== undefined) {
    if (x.line === y.line) return true;
    return x.category === y.category && Math.abs(x.line - y.line) <= within;
  }
  return x.line === undefined && y.line === undefined && x.section === y.section;
};

/**
 * The member a group keeps: the earliest one that blocks (as its rulings leave it, or on its own
 * word when no verifier ruled on it), else the earliest a verifier ruled on, else the earliest. A
 * merge never turns a blocking candidate into an advisory finding, and an unverified duplicate
 * never takes the place of the candidate its verifiers graded.
 */
const keptMember = (policy: Policy, group: ReadonlyArray<Member>): Member =>
  group.find((m) => blocksFor(policy, m.effective.severity, m.effective.category)) ??
  group.find((m) => m.rulings.length > 0) ??
  (group[0] as Member);

/** Every candidate of the round, with the rulings on its key, in the merge's order. */
const membersOf = (policy: Policy, ordered: ReadonlyArray<Contribution>): ReadonlyArray<Member> => {
  const rulings = rulingsById(
    ordered.flatMap((c) => (c.report.verifications ?? []).map((ruling) => ({ by: reviewerOf(c), ruling }))),
  );
  return ordered
    .flatMap((contribution, index) =>
      contribution.report.candidates.map((candidate) => {
        const id = findingId(candidate);
        const on = rulings.get(id) ?? [];
        return {
          contribution: index,
          reviewer: reviewerOf(contribution),
          candidate,
          id,
          rulings: on,
          effective: on.length === 0 ? candidate : asRuled(policy, candidate, on),
        };
      }),
    )
    .map((m, at) => ({ ...m, at }));
};

const groupCandidates = (policy: Policy, members: ReadonlyArray<Member>): Member[][] => {
  const within = mergeWithinLinesOf(policy);
  const groups: Member[][] = [];
  for (const member of members) {
    // one id is one finding, always; by place, merging happens only across contributions
    // (within one contribution the seed's rules hold)
    const group =
      groups.find((g) => g.some((m) => m.id === member.id)) ??
      groups.find(
        (g) =>
          g.every((m) => m.contribution !== member.contribution) &&
          g.some((m) => sameFinding(m, member, within)),
      );
    if (group === undefined) groups.push([member]);
    else group.push(member);
  }
  return groups;
};

/**
 * Refuted candidates never enter a group (so a refuted one cannot absorb a live one): each id
 * stays in the report once, marked refuted, unless the same id lives on in another contribution.
 */
const refutedOf = (
  refutedMembers: ReadonlyArray<Member>,
  live: ReadonlySet<string>,
): Readonly<{
  candidates: Array<Readonly<{ at: number; candidate: Candidate }>>;
  refuted: Record<string, Refutation>;
}> => {
  const candidates: Array<Readonly<{ at: number; candidate: Candidate }>> = [];
  const refuted: Record<string, Refutation> = {};
  for (const m of refutedMembers) {
    if (live.has(m.id) || Object.hasOwn(refuted, m.id)) continue;
    candidates.push({ at: m.at, candidate: m.rulings.length === 0 ? m.candidate : m.effective });
    refuted[m.id] =
      m.rulings.length === 0
        ? { by: [m.reviewer], evidence: m.candidate.evidence }
        : {
            by: unique(m.rulings.filter((r) => r.ruling.verdict === 'refuted').map((r) => r.by)),
            evidence: m.rulings
              .filter((r) => r.ruling.verdict === 'refuted')
              .map((r) => r.ruling.evidence)
              .join('\n'),
          };
  }
  return { candidates, refuted };
};

/**
 * Candidates that repeat an earlier round's refutation on unchanged code (rules/refuted-before.ts)
 * never enter a group either, so the round that keeps them as refuted before loses nothing they
 * would have absorbed: each id stays in the report once, as offered, unless it lives on elsewhere.
 */
const repeatedOf = (
  repeatedMembers: ReadonlyArray<Member>,
  live: ReadonlySet<string>,
): Readonly<{
  candidates: Array<Readonly<{ at: number; candidate: Candidate }>>;
  by: Record<string, string[]>;
}> => {
  const candidates: Array<Readonly<{ at: number; candidate: Candidate }>> = [];
  const by: Record<string, string[]> = {};
  for (const m of repeatedMembers) {
    if (live.has(m.id)) continue;
    const seen = by[m.id];
    if (seen !== undefined) {
      if (!seen.includes(m.reviewer)) seen.push(m.reviewer);
      continue;
    }
    candidates.push({ at: m.at, candidate: m.effective });
    by[m.id] = [m.reviewer];
  }
  return { candidates, by };
};

const unique = (items: ReadonlyArray<string>): string[] => [...new Set(items)];

/**
 * Decisions from several reviewers on one finding: `fixed` or `withdrawn` only if no contribution
 * says `open`; otherwise the first non-open status. `reopened` wins over every other vote, erring
 * toward blocking: one reviewer who shows a fix did not hold reopens the finding whatever the others
 * said. (Each contribution's decisions fit their finding, so the votes on a fixed finding are all
 * `reopened` and no vote on an open finding is; the order only keeps the merge total.) Every voice
 * stays in the evidence, so the dissent is kept in the finding's history.
 */
const mergeDecisions = (ordered: ReadonlyArray<Contribution>, refuted: ReadonlySet<string>): Decision[] => {
  const byId = new Map<string, Array<Readonly<{ reviewer: string; decision: Decision }>>>();
  for (const contribution of ordered) {
    for (const decision of contribution.report.decisions) {
      const votes = byId.get(decision.id) ?? [];
      votes.push({ reviewer: reviewerOf(contribution), decision });
      byId.set(decision.id, votes);
    }
  }
  // a candidate linked to a finding says it is still there: an `open` voice where others decided it
  for (const contribution of ordered) {
    for (const c of contribution.report.candidates) {
      if (refuted.has(findingId(c))) continue;
      const votes = c.sameAs === undefined ? undefined : byId.get(c.sameAs);
      if (votes !== undefined && c.sameAs !== undefined)
        votes.push({
          reviewer: reviewerOf(contribution),
          decision: { id: c.sameAs, status: 'open', evidence: c.evidence },
        });
    }
  }
  return [...byId.entries()].map(([id, votes]) => {
    const first = votes[0] as (typeof votes)[number];
    if (votes.length === 1) return first.decision;
    const says = (status: Decision['status']) => votes.some((v) => v.decision.status === status);
    const status = says('reopened') ? 'reopened' : says('open') ? 'open' : first.decision.status;
    const evidence = votes
      .map((v) => `${v.reviewer} (${v.decision.status}): ${v.decision.evidence}`)
      .join('\n');
    return { id, status, evidence };
  });
};

/** Whether a candidate repeats an earlier round's refutation on unchanged code (none, for a merge alone). */
export type Repeats = (candidate: Candidate, id: string) => boolean;

/**
 * The round report several contributions stand for. Pure and total: it never refuses (the rules
 * that refuse run on each contribution as it is recorded, and on the merged report as a round).
 * One contribution merges to its own report, unchanged. `repeats` names the candidates the run
 * refuted before (the round's state knows them): they are kept out of every group.
 */
export const mergeContributions = (
  policy: Policy,
  contributions: readonly [Contribution, ...Contribution[]],
  repeats: Repeats = () => false,
): Merge => {
  const ordered = mergeOrder(contributions);
  const first = ordered[0] as Contribution;
  const members = membersOf(policy, ordered);
  const unrefuted = members.filter((m) => assessmentOfMember(m) !== 'refuted');
  const again = unrefuted.filter((m) => repeats(m.effective, m.id));
  const live = unrefuted.filter((m) => !again.includes(m));
  const liveIds = new Set(live.map((m) => m.id));
  const groups = groupCandidates(policy, live);
  const dropped = refutedOf(
    members.filter((m) => assessmentOfMember(m) === 'refuted'),
    new Set(unrefuted.map((m) => m.id)),
  );
  const held = repeatedOf(again, liveIds);
  const provenance: Record<string, Provenance> = {};
  for (const [id, reviewers] of Object.entries(held.by))
    provenance[id] = { reviewers: [...reviewers].sort(), mergedFrom: [] };
  const kept = groups.map((group) => {
    const kept = keptMember(policy, group);
    const placed = placementOf(kept.candidate, kept.rulings);
    provenance[kept.id] = {
      ...(placed === undefined ? {} : { placed }),
      reviewers: unique(group.map((m) => m.reviewer)).sort(),
      mergedFrom: group
        .filter((m) => m.id !== kept.id)
        .map((m) => ({
          id: m.id,
          reviewer: m.reviewer,
          file: m.candidate.file,
          line: m.candidate.line ?? null,
          category: m.candidate.category,
        })),
    };
    // a group stands where its first member came, so one contribution keeps its own order
    return { at: (group[0] as Member).at, candidate: kept.effective };
  });
  // findings, refuted candidates and those refuted before in the order their first candidate came
  const candidates = [...kept, ...dropped.candidates, ...held.candidates]
    .sort((a, b) => a.at - b.at)
    .map((x) => x.candidate);
  const refuted = dropped.refuted;
  const verified = ordered.some((c) => c.report.verifications !== undefined);
  if (ordered.length === 1 && !verified) return { report: first.report, provenance, refuted };
  if (ordered.length === 1) {
    const { verifications: _applied, ...report } = first.report;
    return { report: { ...report, candidates }, provenance, refuted };
  }
  const notExamined = unique(ordered.flatMap((c) => c.report.notExamined ?? []));
  const reviewers = unique(ordered.map(reviewerOf));
  const report: RoundReport = {
    runId: first.report.runId,
    round: first.report.round,
    inputSha: first.report.inputSha,
    completed: true,
    candidates,
    decisions: mergeDecisions(ordered, new Set(Object.keys(refuted))),
    ...(notExamined.length === 0 ? {} : { notExamined }),
    reviewer: reviewers.join(', ').slice(0, 256),
  };
  return { report, provenance, refuted };
};
