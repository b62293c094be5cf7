import { execFile } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { promisify } from 'node:util';
import { sshEd25519Text } from '@clearance/fold/internal/events/ssh-public-key.js';
import { status } from '../../operations/status.js';
import type { Context } from '../context.js';
import type { Session } from './session.js';

const SERVICE = 'open()\nread()\nclose()\n';
const SPEC = '# Spec\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall it.\n';
const UNINSTALL = '\n## Uninstall\n\nDelete it.\n';
const NOWHERE = '- [high] src/service.js:40 :: the handle is never closed\n';
const PASS = '# Review\n\nNothing to report.\n\n## Not examined\n- the installer script itself\n';

const gitMissing = async (): Promise<boolean> => {
  try {
    await promisify(execFile)('git', ['--version'], { windowsHide: true });
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
};

/**
 * A repository of the demo's own, beside the store (never inside it): an identity, no signing and
 * no hooks of its own, so that a user's global git configuration stays out of it.
 */
const makeRepository = async (s: Session): Promise<void> => {
  await s.git('init', '-q', 'service');
  await s.git('-C', 'service', 'config', 'user.name', 'Clearance Demo');
  await s.git('-C', 'service', 'config', 'user.email', 'demo@clearance.invalid');
  await s.git('-C', 'service', 'config', 'commit.gpgsign', 'false');
  await s.git('-C', 'service', 'config', 'core.hooksPath', '.git/hooks');
  await s.write('service/src/service.js', SERVICE, 'three lines');
  await s.write('service/docs/spec.md', SPEC, 'a spec with two sections, Install and Usage');
  await s.git('-C', 'service', 'add', '-A');
  await s.git('-C', 'service', 'commit', '-qm', 'a service and its spec');
};

/** A signing key of the demo's own, made here, and the allowed-signers line that trusts it. */
const demoKey = (): Readonly<{ pem: string; allowed: string }> => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
  return {
    pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    allowed: `demo@clearance.invalid namespaces="clearance" ${sshEd25519Text(raw)}\n`,
  };
};

/**
 * The approval gate, end to end in a real repository: a citation that resolves nothing is refused,
 * a pass converges, the gate approves and signs, and then refuses once the spec's bytes or HEAD move.
 */
export const gateLoop = async (s: Session, ctx: Context, runId: string): Promise<void> => {
  if (await gitMissing()) {
    s.note(`skipped: the approval-gate run ${runId} needs git, and git is not installed or not on PATH`);
    return;
  }
  s.step(`A third run, ${runId}: a spec in a real git repository, reviewed under issueflow`);
  await makeRepository(s);
  await s.clearance([
    'open',
    runId,
    '--policy',
    'issueflow',
    '--repo',
    'service',
    '--artifact',
    'service/docs/spec.md',
  ]);
  s.note('under issueflow every citation must resolve at the captured commit');

  s.step('Round 1, first try: a finding cites a line that does not exist');
  await s.write('gate/review-1.md', NOWHERE, 'the review, in Markdown', { show: true });
  await s.clearance(['record', runId, '--findings-md', 'gate/review-1.md'], { exit: 1 });
  s.note(`nothing was written: the log still ends at seq ${(await status(ctx, { runId })).seq}`);

  s.step('Round 1: the reviewer registers a pass, and says what it did not examine');
  await s.write('gate/review-1-pass.md', PASS, 'the review, in Markdown', { show: true });
  await s.clearance(['record', runId, '--findings-md', 'gate/review-1-pass.md']);

  s.step('Ask the gate: is what is in front of it what was reviewed?');
  await s.clearance(['gate', runId]);

  s.step('Sign the approval: an in-toto attestation, written as a git note on the approved commit');
  const key = demoKey();
  await s.write('gate/demo-key.pem', key.pem, 'a fresh Ed25519 private key (PKCS#8 PEM)', { mode: 0o600 });
  await s.clearance(['gate', runId, '--attest', '--key', 'gate/demo-key.pem']);
  await s.write('gate/allowed_signers', key.allowed, 'who may sign: that key', { show: true });
  await s.clearance(['audit', 'HEAD', '--repo', 'service', '--allowed-signers', 'gate/allowed_signers']);

  s.step('Edit docs/spec.md (add an Uninstall section) and ask again');
  await s.write('service/docs/spec.md', `${SPEC}${UNINSTALL}`, 'the spec with an Uninstall section');
  await s.clearance(['gate', runId], { exit: 1 });

  s.step('Commit the edit, restore docs/spec.md to the reviewed bytes, and ask again');
  await s.git('-C', 'service', 'commit', '-qam', 'document uninstall');
  await s.write('service/docs/spec.md', SPEC, 'the reviewed bytes again');
  await s.clearance(['gate', runId], { exit: 1 });
  s.note('the same spec bytes, but a commit nobody reviewed: the approval does not carry over');
};
