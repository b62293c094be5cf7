import { toBase64 } from '@clearance/fold/internal/events/base64.js';
import type { RulingSignature } from '@clearance/fold/internal/events/event.js';
import { type RulingContent, rulingMessage } from '@clearance/fold/internal/events/ruling-signature.js';
import { resolveFindingRef } from '@clearance/fold/internal/projections/rules/finding-ref.js';
import { maxRoundsOf, type RunState } from '@clearance/fold/internal/projections/state.js';
import type { Signer } from '../signing/signer.js';
import { intact } from '../store/read.js';
import { appendCommand } from './command.js';
import { actorOf, checkedName, type OperationContext } from './context.js';
import type { ExtendOutput, ResultOf, RuleOutput } from './schemas/results.js';

/**
 * Decisions only a person makes, past the cap: the person's name and reason are part of the input
 * and of the event. The MCP server offers neither: the CLI asks for `--by` on its command line.
 */

export type RuleInput = Readonly<{
  runId: string;
  /** the finding id, or a unique prefix of at least 8 hex characters */
  finding: string;
  status: 'fixed' | 'withdrawn';
  why: string;
  by: string;
  /** the person's key, under a policy that pins signers (the MCP server never holds one) */
  signer?: Signer;
}>;

export type RuleResult = ResultOf<typeof RuleOutput>;

/**
 * A decision signed for the place it will take: the run as it stands (its last line's hash, which
 * the event will follow), the signature over that, and the seq it was made at, so that the append
 * is refused (`seq-mismatch`) rather than written after someone else's line.
 */
const signedAt = async (
  ctx: OperationContext,
  runId: string,
  signer: Signer,
  content: (state: RunState, follows: string) => RulingContent,
): Promise<{ content: RulingContent; signature: RulingSignature; expectedSeq: number }> => {
  const read = intact(await ctx.store.foldRun(runId));
  const made = content(read.state, read.lastHash);
  const sig = await signer.sign(rulingMessage(made));
  return {
    content: made,
    signature: { keyid: signer.keyid, sig: toBase64(sig), follows: read.lastHash },
    expectedSeq: read.lastSeq,
  };
};

export const rule = async (ctx: OperationContext, input: RuleInput): Promise<RuleResult> => {
  const { runId, status, why } = input;
  const by = checkedName(input.by, 'by');
  const signed =
    input.signer === undefined
      ? undefined
      : await signedAt(ctx, runId, input.signer, (state, follows) => ({
          type: 'finding.ruled',
          runId,
          follows,
          // the full id: what is signed is what is recorded
          ruling: { findingId: resolveFindingRef(state.findings, input.finding), status, why, by },
        }));
  const finding = signed?.content.type === 'finding.ruled' ? signed.content.ruling.findingId : input.finding;
  const result = await appendCommand(
    ctx.store,
    runId,
    {
      kind: 'rule',
      ruling: { finding, status, why, by, ...(signed === undefined ? {} : { signature: signed.signature }) },
    },
    { ...actorOf(ctx), ...(signed === undefined ? {} : { expectedSeq: signed.expectedSeq }) },
  );
  const event = result.appended[0];
  const { state } = result.folded;
  return {
    runId,
    findingId: event?.type === 'finding.ruled' ? event.data.findingId : finding,
    findingStatus: status,
    by,
    status: state.status,
    convergedBy: state.convergedBy?.by ?? null,
    seq: event?.seq ?? null,
  };
};

export type ExtendInput = Readonly<{
  runId: string;
  rounds: number;
  why: string;
  by: string;
  signer?: Signer;
}>;

export type ExtendResult = ResultOf<typeof ExtendOutput>;

export const extend = async (ctx: OperationContext, input: ExtendInput): Promise<ExtendResult> => {
  const { runId, rounds, why } = input;
  const by = checkedName(input.by, 'by');
  const signed =
    input.signer === undefined
      ? undefined
      : await signedAt(ctx, runId, input.signer, (_state, follows) => ({
          type: 'rounds.extended',
          runId,
          follows,
          ruling: { rounds, why, by },
        }));
  // decided under the lock like every other event (it names no round and no finding)
  const result = await appendCommand(
    ctx.store,
    runId,
    {
      kind: 'extend',
      extension: { rounds, why, by, ...(signed === undefined ? {} : { signature: signed.signature }) },
    },
    { ...actorOf(ctx), ...(signed === undefined ? {} : { expectedSeq: signed.expectedSeq }) },
  );
  const { state } = result.folded;
  return {
    runId,
    rounds,
    by,
    maxRounds: maxRoundsOf(state),
    status: state.status,
    seq: result.appended[0]?.seq ?? null,
  };
};
