import type { StoredEvent } from '@clearance/fold/internal/events/event.js';
import type { SshEd25519Key } from '@clearance/fold/internal/events/ssh-public-key.js';
import { fold } from '@clearance/fold/internal/projections/fold.js';
import {
  type ReviewStatement,
  reviewStatement,
  type StatementInput,
  statementBytes,
} from '@clearance/fold/internal/render/attestation.js';
import { type AttestationReason, checkEnvelope } from '@clearance/fold/internal/render/attestation-check.js';
import {
  type DsseEnvelope,
  envelopeOf,
  IN_TOTO_PAYLOAD_TYPE,
  preAuthEncoding,
} from '@clearance/fold/internal/render/dsse.js';
import { ClearanceError } from '../errors.js';
import { nodeEd25519 } from '../signing/node-ed25519.js';
import type { Signer } from '../signing/signer.js';
import { parseLog } from '../store/log-format.js';
import { nodeDecider } from '../store/node-decider.js';
import { intact, readRun } from '../store/read.js';
import type { OperationContext } from './context.js';
import type { AttestOutput, ResultOf } from './schemas/results.js';
import { artifactNameOf } from './subject.js';
import { VERSION } from './version.js';

export type AttestInput = Readonly<{
  runId: string;
  signer: Signer;
  /** `gate --base --attest`: the statement is about this commit, approved by patch */
  byPatch?: NonNullable<StatementInput['byPatch']>;
}>;

/** The signed envelope as `attest --json` prints it (the door says where it wrote it), and the statement signed. */
export type AttestResult = Omit<ResultOf<(typeof AttestOutput.options)[0]>, 'out'> &
  Readonly<{ envelope: DsseEnvelope; statement: ReviewStatement }>;

/** The statement of a run as it stands: from the checkpoint when it matches the log, as `status` reads it. */
export const statementOf = async (
  ctx: OperationContext,
  runId: string,
  byPatch?: StatementInput['byPatch'],
): Promise<ReviewStatement> => {
  const read = intact(await ctx.store.foldRun(runId));
  const { state } = read;
  if (state.run === null || state.reviewed === null)
    throw new ClearanceError(
      'no-review',
      `run ${runId} has no recorded round yet: there is nothing to attest until a round is recorded`,
      { runId },
    );
  const artifactName = artifactNameOf(state.run.subject);
  return reviewStatement({
    state,
    log: { head: read.lastHash, events: read.events, lastSeq: read.lastSeq },
    ...(artifactName === undefined ? {} : { artifactName }),
    ...(byPatch === undefined ? {} : { byPatch }),
    version: VERSION,
  });
};

/**
 * Sign what a run says, as an in-toto Statement v1 in a DSSE envelope. Ed25519 is deterministic and
 * the statement is canonical JSON of the log's own content: the same log and key give the same
 * envelope, byte for byte.
 */
export const attest = async (ctx: OperationContext, input: AttestInput): Promise<AttestResult> => {
  const statement = await statementOf(ctx, input.runId, input.byPatch);
  const payload = statementBytes(statement);
  const sig = await input.signer.sign(preAuthEncoding(IN_TOTO_PAYLOAD_TYPE, payload));
  return {
    runId: input.runId,
    keyid: input.signer.keyid,
    envelope: envelopeOf(IN_TOTO_PAYLOAD_TYPE, payload, [{ keyid: input.signer.keyid, sig }]),
    statement,
  };
};

/** Where the log to fold again comes from: the store the context opened, or an `export` file. */
export type LogSource =
  | Readonly<{ kind: 'store'; runId: string }>
  | Readonly<{ kind: 'export'; bytes: Buffer; what: string }>;

export type VerifyAttestationInput = Readonly<{
  /** the envelope, parsed from JSON */
  envelope: unknown;
  /** the keys that may have signed it, each with the principal it is allowed for (if known) */
  keys: ReadonlyArray<Readonly<{ key: SshEd25519Key; principal: string | null }>>;
  /** the commit the statement must be about (a full sha) */
  commit?: string;
  log?: LogSource;
}>;

export type VerifyAttestationResult = ResultOf<(typeof AttestOutput.options)[1]>;

const invalid = (
  reason: AttestationReason,
  message: string,
  details: Readonly<Record<string, unknown>> = {},
) =>
  new ClearanceError('attestation-invalid', `the attestation does not hold (${reason}): ${message}`, {
    reason,
    ...details,
  });

/** The log's events and the hash of its last line: every byte read, the chain checked. */
const eventsFrom = async (
  ctx: OperationContext,
  log: LogSource,
): Promise<{ events: ReadonlyArray<StoredEvent>; lastHash: string }> => {
  if (log.kind === 'store') {
    // as `replay` and `verify` read it: no checkpoint trusted
    const read = intact(await readRun(ctx.store, log.runId));
    return { events: read.events, lastHash: read.lastHash };
  }
  const parsed = parseLog(log.bytes);
  if (parsed.issue !== null)
    throw new ClearanceError(
      'integrity',
      `the log ${log.what} is damaged at line ${parsed.issue.line}: ${parsed.issue.cause}`,
      { path: log.what },
    );
  return { events: parsed.events, lastHash: parsed.lastHash };
};

/**
 * The log as it stood at the attested seq: the hash of that line (the `prev` of the next one, or
 * the last line's hash) and the state folded up to it. A log appended to since still proves what
 * was attested; a log rewritten before that line does not.
 */
const attestedPrefix = async (ctx: OperationContext, log: LogSource, seq: number) => {
  const { events, lastHash } = await eventsFrom(ctx, log);
  if (seq > events.length) return { head: null, state: null, events: events.length };
  const head = seq === events.length ? lastHash : (events[seq]?.prev ?? null);
  return { head, state: fold(nodeDecider.evolve, events.slice(0, seq)).state, events: events.length };
};

/**
 * Check an attestation: its signature by an allowed key, its subject against a commit, and, given
 * the run's log, the log folded again to the same head and the same verdict: the verdict is
 * re-derived, never trusted. A refusal is `attestation-invalid` naming the reason: envelope,
 * signature, signer, subject, head or verdict.
 */
export const verifyAttestation = async (
  ctx: OperationContext,
  input: VerifyAttestationInput,
): Promise<VerifyAttestationResult> => {
  const checked = checkEnvelope(
    nodeEd25519,
    input.envelope,
    input.keys.map((k) => k.key),
  );
  if (!checked.valid) throw invalid(checked.reason, checked.message);
  const { statement, signer } = checked;
  const { predicate } = statement;
  if (input.commit !== undefined) {
    const about = statement.subject.find((s) => s.digest.gitCommit !== undefined)?.digest.gitCommit;
    if (about !== input.commit)
      throw invalid(
        'subject',
        about === undefined
          ? `it is about no commit (its subject: ${statement.subject.map((s) => s.name).join(', ') || 'nothing'}), not ${input.commit}`
          : `it is about commit ${about}, not ${input.commit}`,
        { subject: about ?? null, commit: input.commit },
      );
  }
  let log: VerifyAttestationResult['log'] = null;
  if (input.log !== undefined) {
    const at = predicate.log.lastSeq;
    const prefix = await attestedPrefix(ctx, input.log, at);
    if (prefix.head === null || prefix.state === null)
      throw invalid('head', `the log holds ${prefix.events} event(s), the attestation was made at seq ${at}`);
    if (prefix.state.run?.runId !== predicate.runId)
      throw invalid(
        'head',
        `the log is of run ${prefix.state.run?.runId ?? 'nothing'}, the attestation of ${predicate.runId}`,
      );
    if (prefix.head !== predicate.log.head)
      throw invalid(
        'head',
        `line ${at} of the log hashes to ${prefix.head}, the attestation says ${predicate.log.head}: the log was rewritten after it was attested`,
        { head: prefix.head, attested: predicate.log.head },
      );
    if (prefix.state.status !== predicate.verdict)
      throw invalid(
        'verdict',
        `the log folds to ${prefix.state.status} at seq ${at}, the attestation says ${predicate.verdict}`,
        { derived: prefix.state.status, attested: predicate.verdict },
      );
    log = { head: prefix.head, verdict: prefix.state.status, appendedSince: prefix.events - at };
  }
  return {
    valid: true,
    runId: predicate.runId,
    verdict: predicate.verdict,
    signer: {
      keyid: signer.keyid,
      principal: input.keys.find((k) => k.key.keyid === signer.keyid)?.principal ?? null,
    },
    subject: statement.subject,
    policy: predicate.policy,
    commit: input.commit ?? null,
    log,
  };
};
