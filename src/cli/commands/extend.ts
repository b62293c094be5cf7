import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { extend } from '../../operations/rulings.js';
import { signerOf } from '../../signing/signer.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { parsePositiveInt } from '../option-values.js';
import { personOf } from '../person-flags.js';

export const registerExtend = (program: Command, io: Io): Command =>
  program
    .command('extend')
    .description('past the cap, a person gives a blocked run more rounds, with a name and a reason')
    .argument('<run>', 'the run id')
    .option('--rounds <n>', 'how many rounds to add', parsePositiveInt)
    .option('--why <text>', 'the reason, on the record')
    .option(
      '--key <key>',
      'under a policy that pins signers: your signing key (an Ed25519 private key file, or agent)',
    )
    .addHelpText(
      'after',
      `${examples('clearance extend pr-236 --rounds 1 --why "the fix landed after the cap" --by "Ada Lovelace"')}
Refused unless the run is blocked. --by NAME is required here and is never taken from $CLEARANCE_ACTOR.`,
    )
    .action(
      action(io, async (ctx, runId: string, opts: { rounds?: number; key?: string }) => {
        if (opts.rounds === undefined) throw new ClearanceError('usage', 'extend needs --rounds <n>');
        const signer = opts.key === undefined ? {} : { signer: await signerOf(opts.key, io.env) };
        const r = await extend(ctx, { runId, rounds: opts.rounds, ...personOf(ctx.command), ...signer });
        return {
          json: r,
          text: `extended ${t(runId)} by ${r.rounds} round(s) on the word of ${t(r.by)}: ${r.status} again, up to ${r.maxRounds} rounds`,
        };
      }),
    );
