import { extendRun, ruleFinding } from '../driver/lifecycle.js';
import type { RunStatus } from '../projections/state.js';
import { maxRoundsOf } from '../projections/state.js';
import { actorOf, checkedName, type OperationContext } from './context.js';

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
}>;

export type RuleResult = Readonly<{
  runId: string;
  findingId: string;
  findingStatus: 'fixed' | 'withdrawn';
  by: string;
  status: RunStatus;
  convergedBy: string | null;
  seq: number | null;
}>;

export const rule = async (ctx: OperationContext, input: RuleInput): Promise<RuleResult> => {
  const { runId, finding, status, why } = input;
  const by = checkedName(input.by, 'by');
  const result = await ruleFinding(ctx.store, runId, { finding, status, why, by }, actorOf(ctx));
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

export type ExtendInput = Readonly<{ runId: string; rounds: number; why: string; by: string }>;

export type ExtendResult = Readonly<{
  runId: string;
  rounds: number;
  by: string;
  maxRounds: number;
  status: RunStatus;
  seq: number | null;
}>;

export const extend = async (ctx: OperationContext, input: ExtendInput): Promise<ExtendResult> => {
  const { runId, rounds, why } = input;
  const by = checkedName(input.by, 'by');
  const result = await extendRun(ctx.store, runId, { rounds, why, by }, actorOf(ctx));
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
