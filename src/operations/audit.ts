import type { ReviewStatement } from '@clearance/fold/internal/render/attestation.js';
import { SIGNATURE_NAMESPACE } from '@clearance/fold/internal/render/attestation.js';
import { type AttestationReason, checkEnvelope } from '@clearance/fold/internal/render/attestation-check.js';
import { ClearanceError } from '../errors.js';
import { blobText, commitsWithTrees, notedCommits, treesOf } from '../revision/notes.js';
import { type AllowedSigner, principalsOf } from '../signing/allowed-signers.js';
import { nodeEd25519 } from '../signing/node-ed25519.js';
import type { AuditOutput, ResultOf } from './schemas/results.js';

export type AuditInput = Readonly<{
  repo: string;
  /** a revision range as git reads it: `origin/main~50..origin/main` */
  range: string;
  signers: ReadonlyArray<AllowedSigner>;
}>;

export type AuditResult = ResultOf<typeof AuditOutput>;

/** One commit of the range: reviewed (by identity or tree), unreviewed, or invalid, and why. */
export type AuditedCommit = AuditResult['commits'][number];

type Checked =
  | Readonly<{ valid: true; statement: ReviewStatement; keyid: string; principals: string[] }>
  | Readonly<{ valid: false; reason: AttestationReason; message: string }>;

const subjectDigest = (statement: ReviewStatement, algorithm: string): string | undefined =>
  statement.subject.find((s) => s.digest[algorithm] !== undefined)?.digest[algorithm];

/**
 * For each commit of a range, is it the commit a signed, converged review approved? An attestation
 * (a git note under refs/notes/clearance) on that commit, about that commit: `reviewed`, by
 * identity; or, when its predicate says `gate --base` approved it for making the patch of the
 * commit the run reviewed, by patch. Otherwise one on a commit with the same tree (a squash or rebase merge of the approved
 * commit, the same bytes): `reviewed`, by tree. A note that does not verify: `invalid`, with the
 * reason. Nothing: `unreviewed`. A tree is only the same bytes; docs/attestation.md says what that
 * proves and what it does not.
 */
export const audit = async (input: AuditInput): Promise<AuditResult> => {
  const allowed = input.signers.flatMap((s) =>
    s.key !== null &&
    !s.certAuthority &&
    (s.namespaces === null || s.namespaces.includes(SIGNATURE_NAMESPACE))
      ? [s.key]
      : [],
  );
  if (allowed.length === 0)
    throw new ClearanceError(
      'usage',
      `the allowed signers name no Ed25519 key for the ${SIGNATURE_NAMESPACE} namespace: add a line such as 'ada@example.com namespaces="${SIGNATURE_NAMESPACE}" ssh-ed25519 AAAA…'`,
    );
  const commits = await commitsWithTrees(input.repo, input.range);
  const noted = await notedCommits(input.repo);
  const checked = new Map<string, Checked>();
  for (const { note, commit } of noted) {
    let value: unknown;
    try {
      value = JSON.parse(await blobText(input.repo, note));
    } catch {
      checked.set(commit, { valid: false, reason: 'envelope', message: 'the note is not JSON' });
      continue;
    }
    const result = checkEnvelope(nodeEd25519, value, allowed);
    checked.set(
      commit,
      result.valid
        ? {
            valid: true,
            statement: result.statement,
            keyid: result.signer.keyid,
            principals: principalsOf(input.signers, result.signer, SIGNATURE_NAMESPACE),
          }
        : { valid: false, reason: result.reason, message: result.message },
    );
  }
  // an approval travels by tree only from a commit whose own note holds and is about it
  const approvedTrees = new Map<string, { commit: string; check: Extract<Checked, { valid: true }> }>();
  const trees = await treesOf(
    input.repo,
    [...checked.keys()].filter((c) => checked.get(c)?.valid === true),
  );
  for (const [commit, check] of checked) {
    if (!check.valid || check.statement.predicate.verdict !== 'converged') continue;
    if (subjectDigest(check.statement, 'gitCommit') !== commit) continue;
    const tree = subjectDigest(check.statement, 'gitTree') ?? trees.get(commit);
    if (tree !== undefined && tree === trees.get(commit)) approvedTrees.set(tree, { commit, check });
  }
  const attestedBy = (
    commit: string,
    check: Extract<Checked, { valid: true }>,
  ): AuditedCommit['attested'] => ({
    commit,
    runId: check.statement.predicate.runId,
    verdict: check.statement.predicate.verdict,
    signer: { keyid: check.keyid, principals: check.principals },
    policy: {
      name: check.statement.predicate.policy.name,
      sha256: check.statement.predicate.policy.digest.sha256,
    },
  });
  const audited = commits.map(({ commit, tree }): AuditedCommit => {
    const own = checked.get(commit);
    if (own !== undefined && !own.valid)
      return {
        commit,
        tree,
        status: 'invalid',
        match: null,
        reason: own.reason,
        message: own.message,
        attested: null,
      };
    if (own?.valid) {
      const about = subjectDigest(own.statement, 'gitCommit');
      if (about !== commit)
        return {
          commit,
          tree,
          status: 'invalid',
          match: null,
          reason: 'subject',
          message: `its note attests ${about === undefined ? 'no commit' : `commit ${about}`}, not this one`,
          attested: attestedBy(commit, own),
        };
      const byPatch = own.statement.predicate.byPatch;
      const reviewedCommit = own.statement.predicate.reviewed?.commit;
      if (
        own.statement.predicate.verdict === 'converged' &&
        byPatch !== undefined &&
        reviewedCommit !== commit
      )
        return {
          commit,
          tree,
          status: 'reviewed',
          match: 'patch',
          reason: null,
          message: `reviewed by patch: a converged review of commit ${reviewedCommit ?? 'unknown'}, whose patch against ${byPatch.base.slice(0, 12)} this commit makes too (patch-id ${byPatch.patchId.slice(0, 12)})`,
          attested: attestedBy(commit, own),
        };
      if (own.statement.predicate.verdict === 'converged')
        return {
          commit,
          tree,
          status: 'reviewed',
          match: 'identity',
          reason: null,
          message: 'approved by a converged review of this commit',
          attested: attestedBy(commit, own),
        };
    }
    const same = approvedTrees.get(tree);
    if (same !== undefined)
      return {
        commit,
        tree,
        status: 'reviewed',
        match: 'tree',
        reason: null,
        message: `the same tree as approved commit ${same.commit}`,
        attested: attestedBy(same.commit, same.check),
      };
    return {
      commit,
      tree,
      status: 'unreviewed',
      match: null,
      reason: null,
      message:
        own?.valid === true
          ? `its attestation says ${own.statement.predicate.verdict}, not converged`
          : 'no attestation on it, or on a commit with its tree',
      attested: own?.valid === true ? attestedBy(commit, own) : null,
    };
  });
  const count = (status: AuditedCommit['status']) => audited.filter((c) => c.status === status).length;
  return {
    range: input.range,
    commits: audited,
    reviewed: count('reviewed'),
    unreviewed: count('unreviewed'),
    invalid: count('invalid'),
  };
};
