import type { Command } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { publishReport } from '../../completion/publish.js';
import { ClearanceError, refusal } from '../../errors.js';
import { parseReport } from '../../events/report.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { maxBytesOption, parseJsonInput, readTextInput } from '../inputs.js';

export const registerPublish = (program: Command, io: Io): Command =>
  program
    .command('publish')
    .description(
      'for producers: publish a round report atomically (temporary file, fsync, rename), so a waiter never sees half of it; missing parent directories are created',
    )
    .argument('<path>', 'where the driver waits for the report')
    .option('--report <file>', 'the round report as JSON (- for standard input)')
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      examples(
        'clearance publish review/round-2.json --report draft.json',
        'reviewer-agent | clearance publish review/round-2.json --report -',
      ),
    )
    .action(
      action(io, async (_ctx, path: string, opts: { report?: string; maxBytes?: number }) => {
        if (opts.report === undefined) throw new ClearanceError('usage', 'publish needs --report <file|->');
        const refuse = (m: string, details?: Readonly<Record<string, unknown>>) =>
          new ClearanceError('invalid-report', `invalid round report: ${m}`, details);
        const value = parseJsonInput(
          await readTextInput(opts.report, io, 'report', { refuse, maxBytes: opts.maxBytes }),
          opts.report,
          refuse,
        );
        // a report the driver would refuse is refused here, where its producer can still fix it
        const parsed = parseReport(value);
        if (E.isLeft(parsed)) throw refusal(parsed.left);
        await publishReport(path, parsed.right);
        const { runId, round, inputSha, completed } = parsed.right;
        return {
          json: { path, runId, round, inputSha, completed },
          text: `published the round ${round} report of ${runId} (input ${inputSha}) at ${path}`,
        };
      }),
    );
