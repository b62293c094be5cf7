import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { rule } from '../../operations/rulings.js';
import { signerOf } from '../../signing/signer.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { statusWord } from '../format.js';
import { personOf } from '../person-flags.js';

export const registerRule = (program: Command, io: Io): Command =>
  program
    .command('rule')
    .description(
      'past the cap, a person closes an open finding of a blocked run: fixed or withdrawn, with a name and a reason',
    )
    .argument('<run>', 'the run id')
    .argument('<finding>', 'the finding id, or a unique prefix of at least 8 hex characters')
    .option('--fixed', 'the finding is fixed')
    .option('--withdrawn', 'the finding does not hold')
    .option('--why <text>', 'the reason, on the record')
    .option(
      '--key <key>',
      'under a policy that pins signers: your signing key (an Ed25519 private key file, or agent)',
    )
    .addHelpText(
      'after',
      `${examples('clearance rule pr-236 827f9ded38b8 --withdrawn --why "accepted risk: the pool closes the handle" --by "Ada Lovelace"')}
Refused unless the run is blocked. --by NAME is required here and is never taken from $CLEARANCE_ACTOR.`,
    )
    .action(
      action(
        io,
        async (
          ctx,
          runId: string,
          finding: string,
          opts: { fixed?: boolean; withdrawn?: boolean; key?: string },
        ) => {
          if ((opts.fixed === true) === (opts.withdrawn === true))
            throw new ClearanceError('usage', 'rule needs exactly one of --fixed or --withdrawn');
          const person = personOf(ctx.command);
          const status = opts.fixed === true ? 'fixed' : 'withdrawn';
          const signer = opts.key === undefined ? {} : { signer: await signerOf(opts.key, io.env) };
          const r = await rule(ctx, { runId, finding, status, ...person, ...signer });
          return {
            json: r,
            text:
              r.convergedBy === null
                ? `ruled ${status} by ${t(r.by)}; the run is still ${statusWord(ctx.color, r.status)}`
                : `ruled ${status} by ${t(r.by)}: ${t(runId)} is converged by ruling of ${t(r.convergedBy)}`,
          };
        },
      ),
    );
