import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import { isClearanceError } from '../../errors.js';
import { audit } from '../../operations/audit.js';
import { gate } from '../../operations/gate.js';
import { open } from '../../operations/open.js';
import { record } from '../../operations/record.js';
import { status } from '../../operations/status.js';
import { parseAllowedSigners } from '../../signing/allowed-signers.js';
import { signerOf } from '../../signing/signer.js';
import type { Context } from '../context.js';
import { recordedText } from '../recorded-text.js';
import type { Narrator } from './narrator.js';

const execFileAsync = promisify(execFile);

const SERVICE = 'open()\nread()\nclose()\n';
const SPEC = '# Spec\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall it.\n';
const UNINSTALL = '\n## Uninstall\n\nDelete it.\n';
const NOWHERE = '- [high] src/service.js:40 :: the handle is never closed\n';
const PASS = '# Review\n\nNothing to report.\n\n## Not examined\n- the installer script itself\n';

/**
 * The user's GIT_* variables are dropped: GIT_DIR or GIT_INDEX_FILE (set when the demo runs inside
 * a git hook) would point these commands at the user's own repository. Fixed dates make the commit
 * ids the same on every run.
 */
const gitEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_'))),
  LC_ALL: 'C',
  GIT_AUTHOR_DATE: '2026-11-30T07:00:00Z',
  GIT_COMMITTER_DATE: '2026-11-30T07:00:00Z',
});

const git = async (repo: string, ...args: string[]): Promise<string> =>
  (await execFileAsync('git', ['-C', repo, ...args], { env: gitEnv(), windowsHide: true })).stdout;

const gitMissing = async (): Promise<boolean> => {
  try {
    await execFileAsync('git', ['--version'], { env: gitEnv(), windowsHide: true });
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
};

const commitAll = async (repo: string, message: string): Promise<string> => {
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '--no-verify', '-m', message);
  return (await git(repo, 'rev-parse', 'HEAD')).trim();
};

/** A repository of its own, with an identity and no hooks or signing: a user's global config must not leak in. */
const makeRepository = async (): Promise<string> => {
  const repo = await mkdtemp(path.join(os.tmpdir(), 'clearance-demo-repo-'));
  await git(repo, '-c', 'init.defaultBranch=main', 'init', '-q');
  await git(repo, 'config', 'user.name', 'Clearance Demo');
  await git(repo, 'config', 'user.email', 'demo@clearance.invalid');
  await git(repo, 'config', 'commit.gpgsign', 'false');
  await git(repo, 'config', 'core.hooksPath', path.join(repo, '.git', 'hooks'));
  await mkdir(path.join(repo, 'src'));
  await mkdir(path.join(repo, 'docs'));
  await writeFile(path.join(repo, 'src', 'service.js'), SERVICE);
  await writeFile(path.join(repo, 'docs', 'spec.md'), SPEC);
  await commitAll(repo, 'a service and its spec');
  return repo;
};

/** A signing key of the demo's own, made here: an Ed25519 key in a PKCS#8 PEM file. */
const demoSigner = async (dir: string) => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const file = path.join(dir, 'demo-key.pem');
  await writeFile(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  return signerOf(file, {});
};

const quoted = (text: string): string =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `│ ${line}`.trimEnd())
    .join('\n');

/**
 * The approval gate, end to end in a real repository: a citation that resolves nothing is refused,
 * a pass converges, the gate approves, and then refuses once the spec's bytes or HEAD move.
 */
export const gateLoop = async (ctx: Context, n: Narrator, runId: string): Promise<void> => {
  const c = ctx.color;
  if (await gitMissing()) {
    n.step(`Skipped: the approval-gate run ${runId} needs git, and git is not installed or not on PATH`);
    return;
  }
  /** What the gate says: its approval, or the refusal it throws, as `clearance gate` prints them. */
  const gateSays = async (): Promise<string> => {
    try {
      return `${c.green('✓')} ${t((await gate(ctx, { runId })).message)}`;
    } catch (error) {
      if (!isClearanceError(error) || typeof error.details.reason !== 'string') throw error;
      return `${c.red('✗ refused')} ${error.details.reason}: ${t(error.message.replace(/^gate refused: /, ''))}`;
    }
  };
  const review = (markdown: string) => record(ctx, { runId, source: { kind: 'markdown', review: markdown } });

  n.step(`A third run, ${runId}: a spec in a real git repository, reviewed under issueflow`);
  const repo = await makeRepository();
  const spec = path.join(repo, 'docs', 'spec.md');
  n.say(c.dim(`a fresh repository at ${repo}: src/service.js (3 lines) and docs/spec.md, one commit`));
  n.command(`open ${runId} --policy issueflow --repo ${repo} --artifact ${spec}`);
  const opened = await open(ctx, { runId, policy: 'issueflow', repo, artifact: spec });
  n.say(
    `round 1 will review commit ${opened.capture?.commit?.slice(0, 12)} and docs/spec.md (sha256 ${opened.capture?.artifactSha?.slice(0, 12)}…);\nunder issueflow every citation must resolve at that commit`,
  );

  n.step('Round 1, first try: a finding cites a line that does not exist');
  n.command(`record ${runId} --findings-md review-1.md`);
  n.say(quoted(NOWHERE));
  try {
    await review(NOWHERE);
    n.say(c.red('unexpected: the citation was accepted'));
  } catch (error) {
    if (!isClearanceError(error)) throw error;
    n.say(`${c.red('✗ refused')} ${error.code}: ${t(error.message)}`);
  }
  const { seq } = await status(ctx, { runId });
  n.say(c.dim(`nothing was written: the log still ends at seq ${seq}`));

  n.step('Round 1: the reviewer registers a pass, and says what it did not examine');
  n.command(`record ${runId} --findings-md review-1.md`);
  n.say(quoted(PASS));
  n.say(recordedText(c, await review(PASS)));

  n.step('Ask the gate: is what is in front of it what was reviewed?');
  n.command(`gate ${runId}`);
  n.say(await gateSays());

  n.step('Sign the approval: an in-toto attestation, written as a git note on the approved commit');
  const signer = await demoSigner(ctx.dir);
  n.command(`gate ${runId} --attest --key demo-key.pem`);
  const signed = await gate(ctx, { runId, attestWith: signer });
  n.say(
    `note on ${signed.attestation?.commit.slice(0, 12)} (${signed.attestation?.ref}), signed with ${signer.keyid}`,
  );
  n.command(`audit HEAD --allowed-signers allowed_signers`);
  const audited = await audit({
    repo,
    range: 'HEAD',
    signers: parseAllowedSigners(`demo@example.com namespaces="clearance" ${signer.text}\n`),
  });
  for (const c of audited.commits)
    n.say(`${c.commit.slice(0, 12)} ${c.status}${c.match === null ? '' : ` (${c.match})`}: ${t(c.message)}`);

  n.step('Edit docs/spec.md (add an Uninstall section) and ask again');
  await writeFile(spec, `${SPEC}${UNINSTALL}`);
  n.command(`gate ${runId}`);
  n.say(await gateSays());

  n.step('Commit the edit, restore docs/spec.md to the reviewed bytes, and ask again');
  const head = await commitAll(repo, 'document uninstall');
  await writeFile(spec, SPEC);
  n.say(c.dim(`HEAD is now ${head.slice(0, 12)}; docs/spec.md holds the reviewed bytes again`));
  n.command(`gate ${runId}`);
  n.say(await gateSays());
  n.say('same spec bytes, but a commit nobody reviewed: the approval does not carry over');
};
