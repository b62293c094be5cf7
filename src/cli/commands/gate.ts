import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError, GATE_REFUSALS, type GateRefusal, isClearanceError } from '../../errors.js';
import { gate } from '../../operations/gate.js';
import { signerOf } from '../../signing/signer.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { exitCodeFor } from '../exit-codes.js';
import { githubOutcome } from '../github-format.js';

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
    .option(
      '--base <ref>',
      'the branch the change goes into (origin/main): when HEAD is not the reviewed commit but makes the same patch against it (git patch-id), approve by patch',
    )
    .option(
      '--attest',
      'on approval, sign an attestation and write it as a git note on the approved commit (refs/notes/clearance)',
    )
    .option('--key <key>', 'with --attest: the signing key (an Ed25519 private key file, or agent)')
    .addHelpText(
      'after',
      `${examples(
        'clearance gate pr-236 --repo .',
        'clearance gate spec-review --artifact docs/spec.md --json',
        'clearance gate pr-236 --repo . --format github   # a required check: annotations and a step summary',
        'clearance gate pr-236 --repo . --attest --key agent   # and the signed approval, as a note on the commit',
        'clearance gate pr-236 --repo . --base origin/main   # rebased onto a newer main, the patch unchanged: approved by patch',
      )}
Exit 0 approved; 1 refused: ${GATE_REFUSALS.join(', ')}.`,
    )
    .action(
      action(
        io,
        async (
          ctx,
          runId: string,
          opts: { repo?: string; artifact?: string; base?: string; attest?: boolean; key?: string },
        ) => {
          if ((opts.attest === true) !== (opts.key !== undefined))
            throw new ClearanceError('usage', 'gate --attest needs --key, and --key goes with --attest');
          const input = {
            runId,
            ...(opts.repo === undefined ? {} : { repo: opts.repo }),
            ...(opts.artifact === undefined ? {} : { artifact: opts.artifact }),
            ...(opts.base === undefined ? {} : { base: opts.base }),
            ...(opts.key === undefined ? {} : { attestWith: await signerOf(opts.key, io.env) }),
          };
          const approvedOutcome = (approved: Awaited<ReturnType<typeof gate>>) => {
            const noted =
              approved.attestation === undefined
                ? ''
                : `\nattestation signed with ${approved.attestation.keyid} and written as a note on ${approved.attestation.commit} (${approved.attestation.ref}); share it: git push origin ${approved.attestation.ref}`;
            return { json: approved, text: `${t(approved.message)}${noted}` };
          };
          if (ctx.format !== 'github' || ctx.json) return approvedOutcome(await gate(ctx, input));
          // the same answer and exit status, said as workflow commands for the check's log
          try {
            const approved = await gate(ctx, input);
            return githubOutcome(
              ctx,
              { runId, gate: { approved: true, message: approved.message } },
              approvedOutcome(approved),
            );
          } catch (error) {
            const reason = refusalOf(error);
            if (reason === undefined) throw error;
            const message = (error as Error).message.replace(/^gate refused: /, '');
            return githubOutcome(
              ctx,
              { runId, gate: { approved: false, message, reason } },
              {
                json: {},
                text: `gate refused: ${t(message)} [${reason}]`,
                exit: exitCodeFor(reason),
                refused: error,
              },
            );
          }
        },
      ),
    );

/** The gate's refusal reason, when the error is the gate refusing. */
const refusalOf = (error: unknown): GateRefusal | undefined =>
  isClearanceError(error) && (GATE_REFUSALS as ReadonlyArray<string>).includes(error.code)
    ? (error.code as GateRefusal)
    : undefined;
