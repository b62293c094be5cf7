import { type createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleFromJSON, bundleToJSON } from '@sigstore/bundle';
import { DSSEBundleBuilder } from '@sigstore/sign';
import { toSignedEntity, toTrustMaterial, Verifier } from '@sigstore/verify';
import { describe, expect, it } from 'vitest';
import { sshEd25519Text } from '../../src/events/ssh-public-key.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/git-repo.js';

// clearance's DSSE envelopes, checked by an implementation clearance did not write: sigstore-js
// (the Sigstore project's JavaScript client), with a public key and no transparency log, no
// certificate and no timestamp authority. Both ways: clearance signs and sigstore verifies, and
// sigstore signs clearance's statement and `clearance attest --verify` checks it.

/** A converged run in a store of its own, and an Ed25519 key for it as PEM and as an SSH line. */
const setup = async () => {
  const dir = tempDir('clearance-interop-');
  const store = path.join(dir, 'store');
  const run = (...args: string[]) => cli(['--dir', store, ...args]);
  await run('open', 'pr-1', '--input-sha', 'a'.repeat(40));
  const report = path.join(dir, 'r.json');
  writeFileSync(
    report,
    JSON.stringify({ runId: 'pr-1', round: 1, inputSha: 'a'.repeat(40), completed: true }),
  );
  await run('record', 'pr-1', '--report', report);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keyFile = path.join(dir, 'key.pem');
  writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  const pubFile = path.join(dir, 'key.pub');
  writeFileSync(pubFile, `${sshEd25519Text(raw)} interop\n`);
  return { dir, run, privateKey, publicKey, keyFile, pubFile };
};

/** A verifier that trusts one public key by its hint, and needs no log, certificate or timestamp. */
const verifierFor = (hint: string, publicKey: ReturnType<typeof createPublicKey>) =>
  new Verifier(
    toTrustMaterial(
      {
        mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
        tlogs: [],
        certificateAuthorities: [],
        ctlogs: [],
        timestampAuthorities: [],
      },
      (keyHint: string) => {
        if (keyHint !== hint) throw new Error(`no key ${keyHint}`);
        return { publicKey, validFor: () => true };
      },
    ),
    { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 },
  );

describe('DSSE with sigstore-js', () => {
  it('an envelope clearance signed verifies in sigstore; a changed payload does not', async () => {
    const { run, keyFile, publicKey } = await setup();
    const attested = await run('attest', 'pr-1', '--key', keyFile, '--json');
    const envelope = attested.json.envelope as {
      payload: string;
      payloadType: string;
      signatures: Array<{ keyid: string; sig: string }>;
    };
    const hint = attested.json.keyid as string;
    const bundleOf = (e: typeof envelope) =>
      bundleFromJSON({
        mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
        verificationMaterial: {
          publicKey: { hint },
          tlogEntries: [],
          timestampVerificationData: { rfc3161Timestamps: [] },
        },
        dsseEnvelope: e,
      });
    const verifier = verifierFor(hint, publicKey);
    expect(() => verifier.verify(toSignedEntity(bundleOf(envelope)))).not.toThrow();
    const changed = { ...envelope, payload: Buffer.from('{"_type":"x"}').toString('base64') };
    expect(() => verifier.verify(toSignedEntity(bundleOf(changed)))).toThrow(/signature/i);
  });

  it('an envelope sigstore signed over clearance statement verifies with clearance attest --verify, log and all', async () => {
    const { dir, run, privateKey, publicKey, pubFile } = await setup();
    // the statement clearance makes of the run: the payload sigstore signs
    const ours = await run('attest', 'pr-1', '--key', path.join(dir, 'key.pem'), '--json');
    const payload = Buffer.from((ours.json.envelope as { payload: string }).payload, 'base64');
    const hint = ours.json.keyid as string;
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const bundle = await new DSSEBundleBuilder({
      signer: {
        sign: async (data: Buffer) => ({
          signature: sign(null, data, privateKey),
          key: { $case: 'publicKey', publicKey: pem, hint },
        }),
      },
      witnesses: [],
    }).create({ data: payload, type: 'application/vnd.in-toto+json' });
    const theirs = (bundleToJSON(bundle) as { dsseEnvelope: unknown }).dsseEnvelope;
    const file = path.join(dir, 'sigstore.json');
    writeFileSync(file, JSON.stringify(theirs));
    const verified = await run('attest', '--verify', file, '--key', pubFile, 'pr-1', '--json');
    expect(verified.json).toMatchObject({
      ok: true,
      valid: true,
      runId: 'pr-1',
      verdict: 'converged',
      log: { verdict: 'converged' },
    });
    // a byte of their signature flipped: clearance refuses it too
    const envelope = JSON.parse(readFileSync(file, 'utf8')) as { signatures: Array<{ sig: string }> };
    const sig = Buffer.from(envelope.signatures[0]?.sig ?? '', 'base64');
    sig[0] = (sig[0] ?? 0) ^ 1;
    writeFileSync(
      file,
      JSON.stringify({
        ...envelope,
        signatures: [{ ...envelope.signatures[0], sig: sig.toString('base64') }],
      }),
    );
    const refused = await run('attest', '--verify', file, '--key', pubFile, '--json');
    expect([refused.code, (refused.json.error as { details: { reason: string } }).details.reason]).toEqual([
      1,
      'signature',
    ]);
  });
});
