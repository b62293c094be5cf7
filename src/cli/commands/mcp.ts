import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { examples, settle } from '../action.js';
import { contextOf, type Io } from '../context.js';
import { printFailure } from '../output.js';
import type { Services } from '../services.js';

/** `--http [HOST:]PORT`: a port alone binds 127.0.0.1; an IPv6 host is written in brackets. */
const parseAddress = (value: string): Readonly<{ host: string; port: number }> => {
  const found = /^(?:(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(value);
  const port = Number(found?.[2]);
  if (found === null || port > 65_535)
    throw new ClearanceError(
      'usage',
      `--http takes [HOST:]PORT (e.g. 8377, 127.0.0.1:8377, [::1]:8377), got ${JSON.stringify(value.slice(0, 100))}`,
    );
  const host = found[1] ?? '127.0.0.1';
  return { host: host.replace(/^\[|\]$/g, ''), port };
};

export const registerMcp = (program: Command, io: Io, services: Services): Command =>
  program
    .command('mcp')
    .description(
      'serve the loop to a coding agent: a Model Context Protocol server on standard input and output, or over Streamable HTTP (rule and extend are not offered: only a named person rules)',
    )
    .option(
      '--http <[host:]port>',
      'serve over Streamable HTTP at http://HOST:PORT/mcp instead (HOST default 127.0.0.1; any other address needs CLEARANCE_MCP_TOKEN)',
    )
    .addHelpText(
      'after',
      `${examples(
        'clearance mcp',
        'clearance --dir .reviews --by review-agent mcp',
        'clearance --store postgres://clearance@db.internal/reviews mcp --http 8377',
        'CLEARANCE_MCP_TOKEN=$(openssl rand -hex 32) clearance mcp --http 0.0.0.0:8377',
      )}
Tools: open, capture, status, next, may, record, reproduce, checks, wait, findings, explain,
feedback, gate. Each answers with the operation's result, as clearance <command> --json prints it;
a refusal is a tool error carrying {ok:false, error:{code, message, fields, next}}.
The store, the actor and the lock timeout are the server's, from its own flags and environment
(--store, --dir, --by, --lock-timeout, CLEARANCE_*), opened once at start: no tool argument can
name a store, an actor or a lock timeout, and paths a tool reads are files, never URLs.
Over HTTP the server checks Host and Origin (DNS rebinding), and with CLEARANCE_MCP_TOKEN set
answers 401 to a request without "Authorization: Bearer <token>". It stops on SIGINT or SIGTERM.
Set-up for each agent: docs/agents.md.`,
    )
    .action(async (opts: { http?: string }, command: Command) => {
      const json = (command.optsWithGlobals() as { json?: boolean }).json === true;
      let close: (() => Promise<void>) | undefined;
      try {
        if (services.serveMcp === undefined)
          throw new ClearanceError(
            'usage',
            'this build of clearance has no MCP server: run the clearance executable',
          );
        const address = opts.http === undefined ? undefined : parseAddress(opts.http);
        const token = io.env.CLEARANCE_MCP_TOKEN;
        const ctx = await contextOf(command, io);
        close = ctx.store.close;
        await services.serveMcp({
          context: ctx,
          ...(ctx.store.kind === 'file' ? { dir: ctx.dir } : {}),
          ...(address === undefined
            ? {}
            : { http: { ...address, ...(token === undefined || token === '' ? {} : { token }) } }),
          onListening: (url) => io.stderr.write(`clearance mcp: serving ${url}\n`),
        });
      } catch (error) {
        // before the protocol starts (a store that cannot be opened, an address taken): said as any command says it
        settle(command, printFailure(io, json, error));
      } finally {
        await close?.().catch(() => undefined);
      }
    });
