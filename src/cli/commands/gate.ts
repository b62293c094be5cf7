import path from 'node:path';
import type { Command } from 'commander';
import { gate } from '../../driver/gate.js';
import { ClearanceError, GATE_REFUSALS } from '../../errors.js';
import { readIntactState } from '../../store/store.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { exitCodeFor } from '../exit-codes.js';
import { formatOption, githubOutput, type OutputFormat } from '../github-format.js';

export const registerGate = (program: Command, io: Io): Command =>
  program
    .command('gate')
    .description(
      'approve only a converged run whose reviewed bytes are still the bytes in front of it (reads only; no bypass)',
    )
    .argument('<run>', 'the run id')
    .option(
      '--repo <dir>',
      'the repository whose HEAD must be the reviewed commit (default: the one the run was opened with)',
    )
    .option(
      '--artifact <file>',
      'the artifact whose bytes must be the reviewed ones (default: the one the run was opened with)',
    )
    .addOption(formatOption())
    .addHelpText(
      'after',
      `${examples(
        'clearance gate pr-236 --repo .',
        'clearance gate spec-review --artifact docs/spec.md --json',
        'clearance gate pr-236 --repo . --format github   # a required check: annotations and a step summary',
      )}
Exit 0 approved; 1 refused: ${GATE_REFUSALS.join(', ')}.`,
    )
    .action(
      action(
        io,
        async (ctx, runId: string, opts: { repo?: string; artifact?: string; format: OutputFormat }) => {
          const verdict = await gate(ctx.store, runId, {
            ...(opts.repo === undefined ? {} : { repo: path.resolve(opts.repo) }),
            ...(opts.artifact === undefined ? {} : { artifact: path.resolve(opts.artifact) }),
          });
          if (opts.format === 'github' && !ctx.json) {
            // the same verdict and exit status, said as workflow commands for the check's log
            const { state } = await readIntactState(ctx.store, runId);
            const text = await githubOutput(
              ctx,
              state,
              verdict.approved
                ? { level: 'notice', title: `clearance gate: ${runId} approved`, message: verdict.message }
                : {
                    level: 'error',
                    title: `clearance gate: ${runId} refused (${verdict.reason})`,
                    message: verdict.message,
                  },
              verdict.approved
                ? { approved: true, message: verdict.message }
                : { approved: false, message: verdict.message, reason: verdict.reason },
            );
            return { json: {}, text, exit: verdict.approved ? 0 : exitCodeFor(verdict.reason) };
          }
          if (!verdict.approved) {
            throw new ClearanceError(verdict.reason, `gate refused: ${verdict.message}`, {
              reason: verdict.reason,
              status: verdict.status,
            });
          }
          return {
            json: {
              runId,
              approved: true,
              inputSha: verdict.inputSha,
              boundBy: verdict.boundBy,
              message: verdict.message,
            },
            text: verdict.message,
          };
        },
      ),
    );
