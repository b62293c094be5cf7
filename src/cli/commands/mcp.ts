import type { Command } from 'commander';
import { examples } from '../action.js';
import type { Io } from '../context.js';

/** The global options a tool's command inherits from `clearance … mcp`. */
const globalsOf = (command: Command): string[] => {
  const o = command.optsWithGlobals() as { dir?: string; by?: string; lockTimeout?: number };
  return [
    ...(o.dir === undefined ? [] : ['--dir', o.dir]),
    ...(o.by === undefined ? [] : ['--by', o.by]),
    ...(o.lockTimeout === undefined ? [] : ['--lock-timeout', String(o.lockTimeout)]),
  ];
};

export const registerMcp = (program: Command, io: Io): Command =>
  program
    .command('mcp')
    .description(
      'serve the loop to a coding agent: a Model Context Protocol server on standard input and output (rule and extend are not offered: only a named person rules)',
    )
    .addHelpText(
      'after',
      `${examples('clearance mcp', 'clearance --dir .reviews --by review-agent mcp')}
Tools: open, capture, status, next, may, record, wait, findings, explain, feedback, gate. Each
answers with the command's --json object (clearance schema output <command> describes it).
Add it to an agent: {"mcpServers": {"clearance": {"command": "npx", "args": ["clearance", "mcp"]}}}`,
    )
    .action(async (_opts: unknown, command: Command) => {
      // loaded only here: no other command's start-up evaluates the MCP SDK
      const { serveStdio } = await import('../../mcp/server.js');
      await serveStdio({ globals: globalsOf(command), env: io.env });
    });
