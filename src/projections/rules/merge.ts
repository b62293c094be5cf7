import { findingId } from '../../events/finding-id.js';
import { blocksFor, mergeWithinLinesOf, type Policy } from '../../events/policy.js';
import type { Candidate, Decision, RoundReport } from '../../events/report.js';
import type { Contribution, MergedFrom } from '../state.js';

/** How an anonymous contributor is named in corroboration and `mergedFrom`. */
export const ANONYMOUS = 'anonymous';

export const reviewerOf = (c: Pick<Contribution, 'expert'>): string => c.expert ?? ANONYMOUS;

/** Where a merged finding came from: who proposed it, and which other candidates it absorbed. */
export type Provenance = Readonly<{
  reviewers: ReadonlyArray<string>;
  mergedFrom: ReadonlyArray<MergedFrom>;
}>;

export type Merge = Readonly<{
  /** the round report the merge stands for: what `round.recorded` must carry */
  report: RoundReport;
  /** by the id of each merged candidate */
  provenance: Readonly<Record<string, Provenance>>;
}>;

type Member = Readonly<{ contribution: number; reviewer: string; candidate: Candidate; id: string }>;

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
  if (x.file !== y.file) return false;
  if (x.line !== undefined && y.line !== undefined) {
    if (x.line === y.line) return true;
    return x.category === y.category && Math.abs(x.line - y.line) <= within;
  }
  return x.line === undefined && y.line === undefined && x.section === y.section;
};

/**
 * The member a group keeps: the earliest contribution's candidate, unless it does not block and a
 * later one does. A merge never turns a blocking candidate into an advisory finding.
 */
const keptMember = (policy: Policy, group: ReadonlyArray<Member>): Member => {
  const blocks = (m: Member) => blocksFor(policy, m.candidate.severity, m.candidate.category);
  return group.find(blocks) ?? (group[0] as Member);
};

const groupCandidates = (policy: Policy, ordered: ReadonlyArray<Contribution>): Member[][] => {
  const within = mergeWithinLinesOf(policy);
  const groups: Member[][] = [];
  ordered.forEach((contribution, index) => {
    for (const candidate of contribution.report.candidates) {
      const member: Member = {
        contribution: index,
        reviewer: reviewerOf(contribution),
        candidate,
        id: findingId(candidate),
      };
      // one id is one finding, always; by place, merging happens only across contributions
      // (within one contribution the seed's rules hold)
      const group =
        groups.find((g) => g.some((m) => m.id === member.id)) ??
        groups.find(
          (g) => g.every((m) => m.contribution !== index) && g.some((m) => sameFinding(m, member, within)),
        );
      if (group === undefined) groups.push([member]);
      else group.push(member);
    }
  });
  return groups;
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
const mergeDecisions = (ordered: ReadonlyArray<Contribution>): Decision[] => {
  const byId = new Map<string, Array<Readonly<{ reviewer: string; decision: Decision }>>>();
  for (const contribution of ordered) {
    for (const decision of contribution.report.decisions) {
      const votes = byId.get(decision.id) ?? [];
      votes.push({ reviewer: reviewerOf(contribution), decision });
      byId.set(decision.id, votes);
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

/**
 * The round report several contributions stand for. Pure and total: it never refuses (the rules
 * that refuse run on each contribution as it is recorded, and on the merged report as a round).
 * One contribution merges to its own report, unchanged.
 */
export const mergeContributions = (
  policy: Policy,
  contributions: readonly [Contribution, ...Contribution[]],
): Merge => {
  const ordered = mergeOrder(contributions);
  const first = ordered[0] as Contribution;
  const groups = groupCandidates(policy, ordered);
  const provenance: Record<string, Provenance> = {};
  const candidates = groups.map((group) => {
    const kept = keptMember(policy, group);
    provenance[kept.id] = {
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
    return kept.candidate;
  });
  if (ordered.length === 1) return { report: first.report, provenance };
  const notExamined = unique(ordered.flatMap((c) => c.report.notExamined ?? []));
  const reviewers = unique(ordered.map(reviewerOf));
  const report: RoundReport = {
    runId: first.report.runId,
    round: first.report.round,
    inputSha: first.report.inputSha,
    completed: true,
    candidates,
    decisions: mergeDecisions(ordered),
    ...(notExamined.length === 0 ? {} : { notExamined }),
    reviewer: reviewers.join(', ').slice(0, 256),
  };
  return { report, provenance };
};
