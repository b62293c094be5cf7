import path from 'node:path';
import type { RunStatus } from '@clearance/fold/internal/projections/state.js';
import { htmlReport } from '@clearance/fold/internal/render/html.js';
import { historyOf } from '@clearance/fold/internal/render/run-history.js';
import { sarifLog } from '@clearance/fold/internal/render/sarif.js';
import { ClearanceError } from '../errors.js';
import { nodeDecider } from '../store/node-decider.js';
import { intact, readRun } from '../store/read.js';
import type { OperationContext } from './context.js';
import type { ReportOutput, ResultOf, SarifOutput } from './schemas/results.js';
import { VERSION } from './version.js';
import { writeOutputFile } from './write-output.js';

/** What other tools read of a run: SARIF for code scanning, the self-contained HTML page for people. */

export type SarifInput = Readonly<{ runId: string; round?: number }>;
export type SarifResult = ResultOf<typeof SarifOutput>;

export const sarif = async (ctx: OperationContext, input: SarifInput): Promise<SarifResult> => {
  const { runId } = input;
  const history = historyOf(nodeDecider.evolve, intact(await readRun(ctx.store, runId)).events);
  const last = history.state.round;
  if (last === 0)
    throw new ClearanceError('usage', `run ${runId} has no round that ended yet: record round 1 first`, {
      runId,
    });
  const round = input.round ?? last;
  if (round > last)
    throw new ClearanceError(
      'usage',
      `--round ${round}: run ${runId} has ended ${last} round(s); give --round 1 to ${last}`,
      { runId, round, last },
    );
  return { runId, round, sarif: sarifLog(history, { round, toolVersion: VERSION }) as SarifResult['sarif'] };
};

export type HtmlReportInput = Readonly<{ runId: string; html: string }>;
export type HtmlReportResult = ResultOf<typeof ReportOutput>;

/** One self-contained HTML page of how the verdict was reached (no script, no network), and where the run stands. */
export const htmlReportOf = async (
  ctx: OperationContext,
  runId: string,
): Promise<Readonly<{ page: string; status: RunStatus; round: number }>> => {
  const history = historyOf(nodeDecider.evolve, intact(await readRun(ctx.store, runId)).events);
  return {
    page: htmlReport(history, { toolVersion: VERSION }),
    status: history.state.status,
    round: history.state.round,
  };
};

/** Write that page to a file. */
export const htmlPage = async (ctx: OperationContext, input: HtmlReportInput): Promise<HtmlReportResult> => {
  const { page, status, round } = await htmlReportOf(ctx, input.runId);
  const file = path.resolve(input.html);
  await writeOutputFile(file, page, 'write', 'the report');
  return { runId: input.runId, file, bytes: Buffer.byteLength(page), status, round };
};
