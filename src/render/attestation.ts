import { canonicalJson } from '../events/canonical-json.js';
import { sha256Hex } from '../events/sha256.js';
import { maxRoundsOf, type RunState, type RunStatus } from '../projections/state.js';
import { toArray } from '../projections/vec.js';
import { openFindings } from '../projections/views/findings.js';

/**
 * What `clearance attest` says about a run, as an in-toto attestation: a Statement v1 whose subject
 * is the reviewed commit (and its tree) and/or the reviewed document, and whose predicate is
 * clearance's own `review/v1` (docs/attestation.md). Built from the folded state and the log's head
 * alone, so the same log always gives the same statement, byte for byte (RFC 8785 canonical JSON);
 * it holds no clock the log does not hold.
 */
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const REVIEW_PREDICATE_TYPE = 'https://clearance-dev.github.io/attestations/review/v1';
/** The namespace a clearance signature is made in (an `allowed_signers` line's `namespaces=`). */
export const SIGNATURE_NAMESPACE = 'clearance';

export type ResourceDescriptor = Readonly<{ name: string; digest: Readonly<Record<string, string>> }>;

export type ReviewPredicate = Readonly<{
  runId: string;
  verdict: RunStatus;
  round: number;
  maxRounds: number;
  policy: Readonly<{ name: string; digest: Readonly<{ sha256: string }> }>;
  /** the log the verdict was folded from: the SHA-256 of its last line, its events, its last seq */
  log: Readonly<{ head: string; events: number; lastSeq: number }>;
  /**
   * `gate --base` approved a commit other than the reviewed one (the subject) because it makes the
   * same patch: the approved commit, the base commit both patches were taken against, and the
   * patch id (`git patch-id --verbatim`). `reviewed.commit` is the commit the run reviewed.
   */
  byPatch?: ByPatch;
  /** what the last recorded round reviewed */
  reviewed: Readonly<{
    inputSha: string;
    commit?: string;
    tree?: string;
    artifactSha?: string;
    workingTree?: true;
  }> | null;
  findings: Readonly<{
    blocking: number;
    open: ReadonlyArray<
      Readonly<{
        id: string;
        severity: string;
        file: string;
        line: number | null;
        section: string | null;
        blocking: boolean;
      }>
    >;
  }>;
  panels: ReadonlyArray<
    Readonly<{
      round: number;
      reviewers: ReadonlyArray<string>;
      /** `expert`: the log's spelling of the reviewer, signed into attestations as it is */
      absent: ReadonlyArray<Readonly<{ expert: string; reason: string }>>;
    }>
  >;
  /** every reviewer recorded absent in any round */
  absentReviewers: ReadonlyArray<string>;
  rulings: ReadonlyArray<
    Readonly<{
      round: number;
      findingId: string;
      status: string;
      by: string;
      why: string;
      signedBy: string | null;
    }>
  >;
  extensions: ReadonlyArray<
    Readonly<{ round: number; rounds: number; by: string; why: string; signedBy: string | null }>
  >;
  convergedBy: Readonly<{ by: string; why: string }> | null;
  clearance: Readonly<{ version: string }>;
}>;

export type ByPatch = Readonly<{ commit: string; base: string; patchId: string }>;

export type ReviewStatement = Readonly<{
  _type: typeof STATEMENT_TYPE;
  subject: ReadonlyArray<ResourceDescriptor>;
  predicateType: typeof REVIEW_PREDICATE_TYPE;
  predicate: ReviewPredicate;
}>;

export type StatementInput = Readonly<{
  state: RunState;
  log: ReviewPredicate['log'];
  /** the name a reviewed document is cited by (its path in the repository, or its file name) */
  artifactName?: string;
  version: string;
  /** the statement is about another commit than the reviewed one, approved by patch, and its tree */
  byPatch?: ByPatch & Readonly<{ tree?: string }>;
}>;

/**
 * What the statement is about: the reviewed commit and its tree, the reviewed document; or, for an
 * approval by patch, the commit approved and its tree.
 */
export const subjectsOf = (
  state: RunState,
  artifactName: string | undefined,
  byPatch?: StatementInput['byPatch'],
): ResourceDescriptor[] => {
  const reviewed = state.reviewed;
  if (reviewed === null) return [];
  const subjects: ResourceDescriptor[] = [];
  if (byPatch !== undefined) {
    subjects.push({ name: 'git-commit', digest: { gitCommit: byPatch.commit } });
    if (byPatch.tree !== undefined) subjects.push({ name: 'git-tree', digest: { gitTree: byPatch.tree } });
    return subjects;
  }
  // a working tree that was reviewed is its tree, not the commit it sits on
  if (reviewed.commit !== undefined && reviewed.dirty !== true)
    subjects.push({ name: 'git-commit', digest: { gitCommit: reviewed.commit } });
  if (reviewed.tree !== undefined) subjects.push({ name: 'git-tree', digest: { gitTree: reviewed.tree } });
  if (reviewed.artifactSha !== undefined)
    subjects.push({ name: artifactName ?? 'artifact', digest: { sha256: reviewed.artifactSha } });
  return subjects;
};

export const reviewStatement = ({
  state,
  log,
  artifactName,
  version,
  byPatch,
}: StatementInput): ReviewStatement => {
  const run = state.run;
  if (run === null) throw new TypeError('reviewStatement: the run is not opened');
  const reviewed = state.reviewed;
  const open = openFindings(state);
  const panels = toArray(state.panels).map((p) => ({
    round: p.round,
    reviewers: [...p.contributors],
    absent: p.absent.map((a) => ({ expert: a.expert, reason: a.reason })),
  }));
  return {
    _type: STATEMENT_TYPE,
    subject: subjectsOf(state, artifactName, byPatch),
    predicateType: REVIEW_PREDICATE_TYPE,
    predicate: {
      runId: run.runId,
      verdict: state.status,
      round: state.round,
      maxRounds: maxRoundsOf(state),
      policy: { name: run.policy.name, digest: { sha256: sha256Hex(canonicalJson(run.policy)) } },
      log,
      ...(byPatch === undefined
        ? {}
        : { byPatch: { commit: byPatch.commit, base: byPatch.base, patchId: byPatch.patchId } }),
      reviewed:
        reviewed === null
          ? null
          : {
              inputSha: reviewed.inputSha,
              ...(reviewed.commit === undefined ? {} : { commit: reviewed.commit }),
              ...(reviewed.tree === undefined ? {} : { tree: reviewed.tree }),
              ...(reviewed.artifactSha === undefined ? {} : { artifactSha: reviewed.artifactSha }),
              ...(reviewed.dirty === true ? { workingTree: true } : {}),
            },
      findings: {
        blocking: open.filter((f) => f.blocking).length,
        open: open.map((f) => ({
          id: f.id,
          severity: f.severity,
          file: f.file,
          line: f.line,
          section: f.section,
          blocking: f.blocking,
        })),
      },
      panels,
      absentReviewers: [...new Set(panels.flatMap((p) => p.absent.map((a) => a.expert)))].sort(),
      rulings: toArray(state.rulings).map((r) => ({
        round: r.round,
        findingId: r.findingId,
        status: r.status,
        by: r.by,
        why: r.why,
        signedBy: r.signedBy ?? null,
      })),
      extensions: toArray(state.extensions).map((x) => ({
        round: x.round,
        rounds: x.rounds,
        by: x.by,
        why: x.why,
        signedBy: x.signedBy ?? null,
      })),
      convergedBy: state.convergedBy,
      clearance: { version },
    },
  };
};

/** The statement's bytes: RFC 8785 canonical JSON, so one state and log give one byte string. */
export const statementBytes = (statement: ReviewStatement): Uint8Array =>
  new TextEncoder().encode(canonicalJson(statement));
