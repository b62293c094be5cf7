import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { outputShaOf } from '../../events/outputs.js';
import { sha256Hex } from '../../events/sha256.js';
import { parseLog } from '../../store/log-format.js';
import { assertRunId } from '../../store/run-id.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { MAX_INPUT_BYTES, maxBytesOption, readInput } from '../inputs.js';

/** The archived outputs a log names (stage.finished, reproduction.recorded), in the order it names them. */
const outputsOf = (log: Buffer): ReadonlyArray<string> => [
  ...new Set(
    parseLog(log).events.flatMap((e) => {
      const sha = outputShaOf(e);
      return sha === null ? [] : [sha];
    }),
  ),
];

export const registerExport = (program: Command, io: Io): Command =>
  program
    .command('export')
    .description(
      "print a run's log lines on stdout, exactly the bytes stored, to move the run to another store",
    )
    .argument('<run>', 'the run id')
    .option(
      '--objects <dir>',
      "also copy the run's archived stage outputs into this directory, one file per sha",
    )
    .addHelpText(
      'after',
      `${examples(
        'clearance export pr-236 > pr-236.jsonl',
        'clearance export pr-236 --objects pr-236.objects | clearance import pr-236 - --objects pr-236.objects --store postgres://…',
      )}
A damaged log is refused (exit 1): export hands out only lines that verify. Under --json the
lines come as one string field, "log".`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: { objects?: string }) => {
        const log = await ctx.store.exportLog(assertRunId(runId));
        const outputs = outputsOf(log);
        if (opts.objects !== undefined) {
          await mkdir(opts.objects, { recursive: true });
          for (const sha of outputs)
            await writeFile(path.join(opts.objects, sha), await ctx.store.readOutput(runId, sha));
        }
        const lines = log.length === 0 ? 0 : log.toString('utf8').split('\n').length - 1;
        if (ctx.json) {
          return {
            json: {
              runId,
              lines,
              bytes: log.length,
              objects: opts.objects === undefined ? [] : outputs,
              log: log.toString('utf8'),
            },
            text: '',
          };
        }
        // the log is UTF-8 by construction (every line verified), so its text is exactly its bytes
        io.stdout.write(log.toString('utf8'));
        if (opts.objects !== undefined)
          io.stderr.write(`copied ${outputs.length} archived output(s) to ${opts.objects}\n`);
        return { json: {}, text: '' };
      }),
    );

export const registerImport = (program: Command, io: Io): Command =>
  program
    .command('import')
    .description(
      'load an exported run into this store, checked whole first: damaged input is refused with nothing written',
    )
    .argument('<run>', 'the run id (it must be the id the log opens)')
    .argument('<file>', 'the exported log lines (- for standard input)')
    .option('--objects <dir>', "the run's archived stage outputs, as `export --objects` wrote them")
    .addOption(maxBytesOption().default(MAX_INPUT_BYTES, `${MAX_INPUT_BYTES}`))
    .addHelpText(
      'after',
      `${examples(
        'clearance import pr-236 pr-236.jsonl --store postgres://clearance@db.internal/reviews',
        'clearance export pr-236 --dir old-store | clearance import pr-236 - --dir new-store',
      )}
Every line must decode and chain, the input must end with a newline, its first event must open
this very run, and the rules must accept every event. A run that exists is refused (exit 1).`,
    )
    .action(
      action(io, async (ctx, runId: string, file: string, opts: { objects?: string; maxBytes: number }) => {
        const bytes = await readInput(file, io, 'log', opts.maxBytes);
        const needed = outputsOf(bytes);
        // the outputs first, checked against their names: a log never names an output its store lacks
        const outputs: Buffer[] = [];
        for (const sha of needed) {
          if (opts.objects === undefined) {
            throw new ClearanceError(
              'usage',
              `the log names ${needed.length} archived stage output(s): give --objects <dir> (from export --objects)`,
              { outputs: needed },
            );
          }
          const object = await readFile(path.join(opts.objects, sha)).catch(() => null);
          if (object === null || sha256Hex(object) !== sha) {
            throw new ClearanceError(
              'integrity',
              `archived output ${sha} is ${object === null ? 'not' : 'changed'} in ${opts.objects}: nothing was imported`,
              { sha },
            );
          }
          outputs.push(object);
        }
        assertRunId(runId);
        // outputs before the log, as a stage's output is archived before the event that names it
        for (const object of outputs) await ctx.store.archiveOutput(runId, object);
        const events = await ctx.store.importLog(runId, bytes);
        return {
          json: { runId, events, objects: needed.length, store: ctx.store.where },
          text: `imported run ${runId}: ${events} event(s)${needed.length === 0 ? '' : `, ${needed.length} archived output(s)`} into ${ctx.store.where}`,
        };
      }),
    );
