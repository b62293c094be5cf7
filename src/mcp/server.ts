import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { OperationContext } from '../operations/context.js';
import { VERSION } from '../operations/version.js';
import { callTool } from './call-tool.js';
import { getPrompt, PROMPTS } from './prompts.js';
import { boundedStdio } from './stdio-lines.js';
import { listedTools } from './tool-list.js';
import { NOT_EXPOSED } from './tools.js';

/** What the server needs: the operation context its door opened once, at start-up. */
export type ServerOptions = Readonly<{
  context: OperationContext;
  /** the file store's directory, to name a full disk or a read-only store by its place */
  dir?: string;
}>;

const INSTRUCTIONS = `clearance owns a code review's loop, budget and stop conditions. The loop: open a run; have the round reviewed; record its report; while record answers open, the author fixes, then capture the next input, review, record; gate when converged. Ask next after any restart. Never declare a verdict yourself: record derives it. A refusal's error.next names the tool to call. ${NOT_EXPOSED}`;

/**
 * The MCP server: one tool per operation in TOOLS (`tools.ts`), listed compactly (`tool-list.ts`),
 * each call answered by `callTool` with the operation's result as structured content (and as
 * text), or a refusal as a tool error an agent can act on. Built on the SDK's protocol `Server`
 * rather than its `McpServer`, whose argument check answers a refusal as a bare message: here every
 * refusal, an invalid argument too, carries a code, the fields and a next step. Every call runs on
 * the one store the server was started with; the client's cancellation reaches a wait as its abort
 * signal.
 */
export const createServer = (options: ServerOptions): Server => {
  const server = new Server(
    { name: 'clearance', version: VERSION },
    { capabilities: { tools: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listedTools()] }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [...PROMPTS] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(options.context, request.params.name, request.params.arguments),
  );
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(
      { ...options.context, signal: extra.signal },
      options.dir,
      request.params.name,
      request.params.arguments,
    ),
  );
  return server;
};

/** Serve over this process's standard input and output until the client closes them. */
export const serveStdio = async (options: ServerOptions): Promise<void> => {
  const server = createServer(options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  process.stdin.once('end', () => void server.close());
  await server.connect(boundedStdio());
  await closed;
};
