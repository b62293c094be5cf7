import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { OperationContext } from '../operations/context.js';
import { failureOf } from '../operations/failure.js';
import { VERSION } from '../operations/version.js';
import { jsonText } from '../text/untrusted.js';
import { NOT_EXPOSED, TOOLS } from './tools.js';

/** What the server needs: the operation context its door opened once, at start-up. */
export type ServerOptions = Readonly<{
  context: OperationContext;
  /** the file store's directory, to name a full disk or a read-only store by its place */
  dir?: string;
}>;

/**
 * The MCP server: one tool per operation in TOOLS, each answering with the operation's result as
 * structured content (and as text). A refusal is a tool error carrying the failure envelope every
 * clearance door prints (`{"ok":false,"error":{code,message,details}}`) as text: it has no
 * structured content, since it is not the tool's output shape. Every call runs on the one store
 * the server was started with; the client's cancellation reaches a wait as its abort signal.
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
        try {
          const result = {
            ok: true,
            ...(await tool.call({ ...options.context, signal: extra.signal }, args)),
          };
          return { content: [{ type: 'text', text: jsonText(result) }], structuredContent: result };
        } catch (error) {
          const { code, message, details } = failureOf(error, options.dir);
          const failure = {
            ok: false,
            error: { code, message, ...(Object.keys(details).length > 0 ? { details } : {}) },
          };
          return { content: [{ type: 'text', text: jsonText(failure) }], isError: true };
        }
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
