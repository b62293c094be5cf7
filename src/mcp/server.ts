import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../cli/program.js';
import { runCommand } from './run-command.js';
import { NOT_EXPOSED, TOOLS } from './tools.js';

export type ServerOptions = Readonly<{
  /** the global options `clearance mcp` was started with, handed to every command */
  globals: ReadonlyArray<string>;
  env: Readonly<Record<string, string | undefined>>;
}>;

/**
 * The MCP server: one tool per command in TOOLS, each answering with the command's `--json`
 * object as structured content (and as text). A refusal is a tool error carrying the command's
 * failure envelope as text: it has no structured content, since it is not the tool's output shape.
 */
export const createServer = (options: ServerOptions): McpServer => {
  const server = new McpServer(
    { name: 'clearance', version: VERSION },
    {
      instructions: `clearance owns the loop, budget and stop conditions of a code review: open a run, capture each round's input, record each round's report, and gate on the verdict it derives (never declare it yourself). Ask next after any restart. ${NOT_EXPOSED}`,
    },
  );
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, outputSchema: tool.output },
      async (args: Record<string, unknown>, extra): Promise<CallToolResult> => {
        const { argv, stdin } = tool.argv(args);
        const result = await runCommand(argv, {
          globals: options.globals,
          env: options.env,
          signal: extra.signal,
          ...(stdin === undefined ? {} : { stdin }),
        });
        const text = JSON.stringify(result.json);
        return result.json.ok === true
          ? { content: [{ type: 'text', text }], structuredContent: result.json }
          : { content: [{ type: 'text', text }], isError: true };
      },
    );
  }
  return server;
};

/** Serve over this process's standard input and output until the client closes them. */
export const serveStdio = async (options: ServerOptions): Promise<void> => {
  const server = createServer(options);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  process.stdin.once('end', () => void server.close());
  await server.connect(new StdioServerTransport());
  await closed;
};
