import path from 'node:path';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { type AuditedCommit, audit } from '../../operations/audit.js';
import { readAllowedSigners } from '../../signing/allowed-signers.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { EXIT } from '../exit-codes.js';

const line = (c: AuditedCommit): string => {
  const how =
    c.status === 'reviewed'
      ? `reviewed (${c.match})`
      : c.status === 'invalid'
        ? `invalid (${c.reason})`
        : 'unreviewed';
  const by =
    c.attested === null
      ? ''
      : ` run ${t(c.attested.runId)} ${c.attested.verdict}, signed by ${c.attested.signer.principals.map(t).join(', ') || c.attested.signer.keyid}, policy ${t(c.attested.policy.name)}`;
  return `${c.commit.slice(0, 12)} ${how}:${by}${by === '' ? ' ' : '; '}${t(c.message)}`;
};

export const registerAudit = (program: Command, io: Io): Command =>
  program
    .command('audit')
    .description(
      'for each commit of a range, was it approved by a signed, converged review? reviewed (the commit itself, or the same tree), unreviewed, or invalid',
    )
    .argument('<range>', 'the commits, as git reads a range: origin/main~50..origin/main')
    .requiredOption('--allowed-signers <file>', "who may sign, in git's gpg.ssh.allowedSignersFile format")
    .option('--repo <dir>', 'the repository (default: the current directory)')
    .addHelpText(
      'after',
      `${examples(
        'git fetch origin refs/notes/clearance:refs/notes/clearance && clearance audit origin/main~50..origin/main --allowed-signers .github/allowed_signers',
        'clearance audit v1.2.0..v1.3.0 --allowed-signers allowed_signers --json | jq ".commits[] | select(.status != \\"reviewed\\")"',
      )}
The attestations are git notes under refs/notes/clearance (clearance gate --attest writes them).
A commit with no note of its own is reviewed by tree when an approved commit had the same tree (a
squash or rebase merge of it); a squash that resolved a conflict is another tree: unreviewed.
Exit 0 only if every commit of the range is reviewed; 1 otherwise.`,
    )
    .action(
      action(io, async (_ctx, range: string, opts: { allowedSigners: string; repo?: string }) => {
        const audited = await audit({
          repo: path.resolve(opts.repo ?? '.'),
          range,
          signers: await readAllowedSigners(opts.allowedSigners),
        });
        const all = audited.commits.length;
        return {
          json: audited,
          text: [
            ...audited.commits.map(line),
            `${all} commit(s): ${audited.reviewed} reviewed, ${audited.unreviewed} unreviewed, ${audited.invalid} invalid`,
          ].join('\n'),
          exit: audited.reviewed === all ? EXIT.ok : EXIT.refused,
        };
      }),
    );
