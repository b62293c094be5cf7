import type { OperationContext } from '../operations/context.js';

/**
 * What the command line can start but never imports: the MCP server, the other front door on the
 * operations layer. The executable's entry (`src/main.ts`) hands it in; a caller of `run` that
 * hands in nothing gets a usage error from `clearance mcp`.
 */
export type Services = Readonly<{
  serveMcp?: (
    options: Readonly<{
      context: OperationContext;
      dir?: string;
      /** serve over HTTP here instead of standard input and output (`mcp --http`) */
      http?: Readonly<{ host: string; port: number; token?: string }>;
      /** told the URL the HTTP server listens on, once it does */
      onListening?: (url: string) => void;
    }>,
  ) => Promise<void>;
}>;
