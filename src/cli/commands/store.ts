import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { initStore } from '../../operations/store-init.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

export const registerStore = (program: Command, io: Io): Command => {
  const store = program
    .command('store')
    .description('manage the store itself: `store init` prepares a PostgreSQL database for clearance')
    .addHelpText(
      'after',
      examples('clearance store init --store postgres://clearance_admin@db.internal/reviews'),
    );
  store
    .command('init')
    .description(
      'create (or upgrade) the clearance schema in the PostgreSQL database --store names; the only command that changes a schema',
    )
    .addHelpText(
      'after',
      `${examples(
        'clearance store init --store postgres://clearance_admin@db.internal/reviews',
        'CLEARANCE_STORE=postgres://clearance_admin@/reviews?host=/var/run/postgresql clearance store init',
      )}
Reads never create or migrate anything: a database whose schema is missing, older or newer than
this clearance is refused (exit 78) until this command runs. Run it with a role that may create
the schema; day-to-day commands need only a role with the privileges docs/stores.md lists.
A directory store needs no init: it is created by the first \`open\`.`,
    )
    .action(
      action(io, async (ctx) => {
        const r = await initStore(ctx.location);
        return {
          json: r,
          text:
            r.kind === 'file'
              ? `${t(r.store)} is a directory store: it needs no init (the first \`clearance open\` creates it)`
              : r.from === r.to
                ? `the ${t(r.store)} already holds clearance schema version ${r.to}: nothing to do`
                : `the ${t(r.store)} now holds clearance schema version ${r.to}${r.from === null ? ' (created)' : ` (upgraded from ${r.from})`}`,
        };
      }),
    );
  return store;
};
