import path from 'node:path';
import { gate as askGate } from '../driver/gate.js';
import { ClearanceError } from '../errors.js';
import type { OperationContext } from './context.js';

export type GateInput = Readonly<{ runId: string; repo?: string; artifact?: string }>;

export type GateResult = Readonly<{
  runId: string;
  approved: true;
  inputSha: string;
  boundBy: 'commit' | 'tree' | 'working-tree' | 'artifact';
  message: string;
}>;

/**
 * Approve only a converged run whose reviewed bytes are still the bytes in front of it. A refusal
 * is the error named by its reason (`not-converged`, `head-moved`, …: exit 1), with the reason,
 * the run's status and the message in its details; there is no `approved: false` and no bypass.
 */
export const gate = async (ctx: OperationContext, input: GateInput): Promise<GateResult> => {
  const verdict = await askGate(ctx.store, input.runId, {
    ...(input.repo === undefined ? {} : { repo: path.resolve(input.repo) }),
    ...(input.artifact === undefined ? {} : { artifact: path.resolve(input.artifact) }),
  });
  if (!verdict.approved) {
    throw new ClearanceError(verdict.reason, `gate refused: ${verdict.message}`, {
      reason: verdict.reason,
      status: verdict.status,
    });
  }
  return {
    runId: input.runId,
    approved: true,
    inputSha: verdict.inputSha,
    boundBy: verdict.boundBy,
    message: verdict.message,
  };
};
