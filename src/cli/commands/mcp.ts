import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { examples, settle } from '../action.js';
import { contextOf, type Io } from '../context.js';
import { printFailure } from '../output.js';
import type { Services } from '../services.js';

export const registerMcp = (program: Command, io: Io, services: Services): Command =>
  program
    .command('mcp')
    .description(
      'serve the loop to a coding agent: a Model Context Protocol server on standard input and output (rule and extend are not offered: only a named person rules)',
    )
    .addHelpText(
      'after',
      `${examples('clearance mcp', 'clearance --dir .reviews --by review-agent mcp', 'clearance --store postgres://clearance@db.internal/reviews mcp')}
Tools: open, capture, status, next, may, record, reproduce, wait, findings, explain, feedback,
gate. Each answers with the operation's result (clearance schema output <command> describes it).
The store, the actor and the lock timeout are the server's, from its own flags and environment
(--store, --dir, --by, --lock-timeout, CLEARANCE_*), opened once at start: no tool argument can
name a store, an actor or a lock timeout, and paths a tool reads are files, never URLs.
Add it to an agent: {"mcpServers": {"clearance": {"command": "npx", "args": ["clearance", "mcp"]}}}`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const json = (command.optsWithGlobals() as { json?: boolean }).json === true;
      let close: (() => Promise<void>) | undefined;
      try {
        if (services.serveMcp === undefined)
          throw new ClearanceError(
            'usage',
            'this build of clearance has no MCP server: run the clearance executable',
          );
        const ctx = await contextOf(command, io);
        close = ctx.store.close;
        await services.serveMcp({ context: ctx, ...(ctx.store.kind === 'file' ? { dir: ctx.dir } : {}) });
      } catch (error) {
        // before the protocol starts (a store that cannot be opened): said as any command says it
        settle(command, printFailure(io, json, error));
      } finally {
        await close?.().catch(() => undefined);
      }
    });
