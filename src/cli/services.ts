import type { OperationContext } from '../operations/context.js';

/**
 * What the command line can start but never imports: the MCP server, the other front door on the
 * operations layer. The executable's entry (`src/main.ts`) hands it in; a caller of `run` that
 * hands in nothing gets a usage error from `clearance mcp`.
 */
export type Services = Readonly<{
  serveMcp?: (options: Readonly<{ context: OperationContext; dir?: string }>) => Promise<void>;
}>;
