import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { exportRun, importRun } from '../../operations/transfer.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { MAX_INPUT_BYTES, maxBytesOption, readInput } from '../inputs.js';

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
        const exported = await exportRun(ctx, {
          runId,
          ...(opts.objects === undefined ? {} : { objects: opts.objects }),
        });
        if (ctx.json) return { json: exported, text: '' };
        // exactly the bytes stored, straight to stdout (an export that changed a byte would not
        // verify): a line this clearance writes is jsonText, holding nothing a terminal or the
        // Actions runner acts on; a line an older one wrote is handed on as it is
        io.stdout.write(exported.log);
        if (opts.objects !== undefined)
          io.stderr.write(`copied ${exported.objects.length} archived output(s) to ${t(opts.objects)}\n`);
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
    .addOption(maxBytesOption(MAX_INPUT_BYTES))
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
      action(io, async (ctx, runId: string, file: string, opts: { objects?: string; maxBytes?: number }) => {
        const log = await readInput(file, io, 'log', opts.maxBytes ?? MAX_INPUT_BYTES);
        const imported = await importRun(ctx, {
          runId,
          log,
          ...(opts.objects === undefined ? {} : { objects: opts.objects }),
        });
        return {
          json: imported,
          text: `imported run ${t(runId)}: ${imported.events} event(s)${imported.objects === 0 ? '' : `, ${imported.objects} archived output(s)`} into ${t(imported.store)}`,
        };
      }),
    );
