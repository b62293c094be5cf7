import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { outputShaOf } from '@clearance/fold/internal/events/outputs.js';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { ClearanceError } from '../errors.js';
import { parseLog } from '../store/log-format.js';
import { assertRunId } from '../store/safe-run-id.js';
import { exportLog, importLog } from '../store/transfer.js';
import type { OperationContext } from './context.js';
import type { ExportOutput, ImportOutput, ResultOf } from './schemas/results.js';

/** The archived outputs a log names (stage.finished, reproduction.recorded), in the order it names them. */
const outputsOf = (log: Buffer): ReadonlyArray<string> => [
  ...new Set(
    parseLog(log).events.flatMap((e) => {
      const sha = outputShaOf(e);
      return sha === null ? [] : [sha];
    }),
  ),
];

export type ExportInput = Readonly<{
  runId: string /** copy the archived outputs into this directory */;
  objects?: string;
}>;

export type ExportResult = ResultOf<typeof ExportOutput>;

/** A run's log lines, exactly the bytes stored, to move the run to another store. Damaged logs are refused. */
export const exportRun = async (ctx: OperationContext, input: ExportInput): Promise<ExportResult> => {
  const { runId } = input;
  const log = await exportLog(ctx.store, assertRunId(runId));
  const outputs = outputsOf(log);
  if (input.objects !== undefined) {
    await mkdir(input.objects, { recursive: true });
    for (const sha of outputs)
      await writeFile(path.join(input.objects, sha), await ctx.store.readOutput(runId, sha));
  }
  return {
    runId,
    lines: log.length === 0 ? 0 : log.toString('utf8').split('\n').length - 1,
    bytes: log.length,
    objects: input.objects === undefined ? [] : outputs,
    log: log.toString('utf8'),
  };
};

export type ImportInput = Readonly<{
  runId: string;
  /** the exported log lines */
  log: Buffer;
  /** the run's archived outputs, as `export --objects` wrote them */
  objects?: string;
}>;

export type ImportResult = ResultOf<typeof ImportOutput>;

/**
 * Load an exported run into this store, checked whole first: every line decodes and chains, its
 * first event opens this very run, the rules accept every event. Damaged input writes nothing.
 */
export const importRun = async (ctx: OperationContext, input: ImportInput): Promise<ImportResult> => {
  const { runId } = input;
  const needed = outputsOf(input.log);
  // the outputs first, checked against their names: a log never names an output its store lacks
  const outputs: Buffer[] = [];
  for (const sha of needed) {
    if (input.objects === undefined) {
      throw new ClearanceError(
        'usage',
        `the log names ${needed.length} archived stage output(s): give --objects <dir> (from export --objects)`,
        { outputs: needed },
      );
    }
    const object = await readFile(path.join(input.objects, sha)).catch(() => null);
    if (object === null || sha256Hex(object) !== sha) {
      throw new ClearanceError(
        'integrity',
        `archived output ${sha} is ${object === null ? 'not' : 'changed'} in ${input.objects}: nothing was imported`,
        { sha },
      );
    }
    outputs.push(object);
  }
  assertRunId(runId);
  // outputs before the log, as a stage's output is archived before the event that names it
  for (const object of outputs) await ctx.store.archiveOutput(runId, object);
  const events = await importLog(ctx.store, runId, input.log);
  return { runId, events, objects: needed.length, store: ctx.store.where };
};
