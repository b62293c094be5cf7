import path from 'node:path';
import { SIGNATURE_NAMESPACE } from '@clearance/fold/internal/render/attestation.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import {
  attest,
  type LogSource,
  type VerifyAttestationResult,
  verifyAttestation,
} from '../../operations/attest.js';
import { writeOutputFile } from '../../operations/write-output.js';
import { commitOf } from '../../revision/notes.js';
import { keysOf, readAllowedSigners, readPublicKey } from '../../signing/allowed-signers.js';
import { signerOf } from '../../signing/signer.js';
import { action, examples } from '../action.js';
import type { Context, Io } from '../context.js';
import { MAX_INPUT_BYTES, parseJsonInput, readInput, readTextInput } from '../inputs.js';
import type { Outcome } from '../output.js';

type Options = {
  key?: string;
  out?: string;
  verify?: string;
  allowedSigners?: string;
  principal?: string;
  commit?: string;
  repo?: string;
  log?: string;
};

/** The keys that may have signed: a principal's in an allowed_signers file, or one public key. */
const keysFrom = async (opts: Options) => {
  if (opts.allowedSigners !== undefined) {
    if (opts.principal === undefined)
      throw new ClearanceError(
        'usage',
        'attest --verify --allowed-signers needs --principal NAME: who must have signed it',
      );
    const keys = keysOf(await readAllowedSigners(opts.allowedSigners), opts.principal, SIGNATURE_NAMESPACE);
    if (keys.length === 0)
      throw new ClearanceError(
        'attestation-invalid',
        `the attestation does not hold (signer): ${opts.allowedSigners} gives ${opts.principal} no Ed25519 key for the ${SIGNATURE_NAMESPACE} namespace`,
        { reason: 'signer' },
      );
    return keys.map((key) => ({ key, principal: opts.principal ?? null }));
  }
  if (opts.key === undefined)
    throw new ClearanceError(
      'usage',
      'attest --verify needs --allowed-signers FILE --principal NAME, or --key PUBLIC-KEY-FILE',
    );
  return [{ key: await readPublicKey(opts.key), principal: null }];
};

const verifyText = (r: VerifyAttestationResult): string => {
  const signer =
    r.signer.principal === null ? r.signer.keyid : `${t(r.signer.principal)} (${r.signer.keyid})`;
  const lines = [
    `valid: run ${t(r.runId)} ${r.verdict}, signed by ${signer}, policy ${t(r.policy.name)} (sha256 ${r.policy.digest.sha256.slice(0, 12)}…)`,
    `  about ${r.subject.map((s) => `${t(s.name)} ${Object.values(s.digest)[0]?.slice(0, 12) ?? ''}`).join(', ')}`,
  ];
  if (r.commit !== null) lines.push(`  the subject is commit ${r.commit}`);
  if (r.log !== null)
    lines.push(
      `  the log folds again to the attested head ${r.log.head.slice(0, 12)}… and verdict ${r.log.verdict}${r.log.appendedSince === 0 ? '' : ` (${r.log.appendedSince} event(s) appended since)`}`,
    );
  return lines.join('\n');
};

const verifyOutcome = async (
  ctx: Context,
  io: Io,
  runId: string | undefined,
  opts: Options,
): Promise<Outcome> => {
  const file = opts.verify as string;
  const refuse = (m: string) =>
    new ClearanceError('attestation-invalid', `the attestation does not hold (envelope): ${m}`, {
      reason: 'envelope',
    });
  const envelope = parseJsonInput(await readTextInput(file, io, 'attestation', { refuse }), file, refuse);
  if (runId !== undefined && opts.log !== undefined)
    throw new ClearanceError(
      'usage',
      'give the run (its log is read from the store) or --log FILE, not both',
    );
  const log: LogSource | undefined =
    opts.log !== undefined
      ? { kind: 'export', bytes: await readInput(opts.log, io, 'log', MAX_INPUT_BYTES), what: opts.log }
      : runId === undefined
        ? undefined
        : { kind: 'store', runId };
  const commit =
    opts.commit === undefined ? undefined : await commitOf(path.resolve(opts.repo ?? '.'), opts.commit);
  const verified = await verifyAttestation(ctx, {
    envelope,
    keys: await keysFrom(opts),
    ...(commit === undefined ? {} : { commit }),
    ...(log === undefined ? {} : { log }),
  });
  return { json: verified, text: verifyText(verified) };
};

export const registerAttest = (program: Command, io: Io): Command =>
  program
    .command('attest')
    .description(
      'sign what a run says as an in-toto attestation (a Statement v1 in a DSSE envelope), or check one with --verify',
    )
    .argument('[run]', 'the run to attest (with --verify: the run whose log to fold again)')
    .option(
      '--key <key>',
      'the signing key: an OpenSSH or PKCS#8 PEM Ed25519 private key file, or agent (agent:SHA256:… for one of several); with --verify, a public key file',
    )
    .option('--out <file>', 'write the envelope here instead of standard output (- is standard output)')
    .option(
      '--verify <file>',
      'check this attestation instead: its signature, its subject, and (given the run or --log) the log folded again',
    )
    .option(
      '--allowed-signers <file>',
      "with --verify: who may sign, in git's gpg.ssh.allowedSignersFile format",
    )
    .option('--principal <name>', 'with --allowed-signers: the signer the attestation must be from')
    .option('--commit <rev>', 'with --verify: the commit the attestation must be about (resolved in --repo)')
    .option('--repo <dir>', 'with --commit: the repository (default: the current directory)')
    .option(
      '--log <file>',
      'with --verify: an exported log (clearance export) to fold again, instead of the run in the store',
    )
    .addHelpText(
      'after',
      `${examples(
        'clearance attest pr-236 --key ~/.ssh/id_ed25519 --out pr-236.intoto.json',
        'clearance attest pr-236 --key agent',
        'clearance attest --verify pr-236.intoto.json --allowed-signers .github/allowed_signers --principal ci@example.com --commit HEAD pr-236',
        'clearance attest --verify pr-236.intoto.json --key ci.pub --log pr-236.jsonl',
      )}
The predicate is clearance's review/v1 (clearance schema attestation; docs/attestation.md). The same
log and key give the same envelope, byte for byte. --verify exits 0 when the attestation holds and
1 naming why not: envelope, signature, signer, subject, head (the log was rewritten) or verdict.
An encrypted key file is opened with CLEARANCE_KEY_PASSPHRASE; the agent is SSH_AUTH_SOCK's.`,
    )
    .action(
      action(io, async (ctx, runId: string | undefined, opts: Options) => {
        if (opts.verify !== undefined) return verifyOutcome(ctx, io, runId, opts);
        if (runId === undefined || opts.key === undefined)
          throw new ClearanceError('usage', 'attest needs a run and --key (or --verify FILE to check one)');
        const attested = await attest(ctx, { runId, signer: await signerOf(opts.key, io.env) });
        const line = `${JSON.stringify(attested.envelope)}\n`;
        if (opts.out !== undefined && opts.out !== '-') {
          const file = path.resolve(opts.out);
          await writeOutputFile(file, line, 'write', 'the attestation');
          return {
            json: { runId, keyid: attested.keyid, out: file, envelope: attested.envelope },
            text: `wrote ${t(file)}: run ${t(runId)} ${attested.statement.predicate.verdict}, signed with ${attested.keyid}`,
          };
        }
        if (ctx.json)
          return { json: { runId, keyid: attested.keyid, out: null, envelope: attested.envelope }, text: '' };
        // the envelope is the output, as export's log is: exactly the bytes to keep
        io.stdout.write(line);
        return { json: {}, text: '' };
      }),
    );
