import type { OperationContext } from '../operations/context.js';
import { type HttpOptions, serveHttp } from './http.js';
import { oneCallAtATime } from './one-call-at-a-time.js';
import { type ServerOptions, serveStdio } from './server.js';

/** `clearance mcp`: over standard input and output, or over HTTP when `http` says where. */
export type ServeOptions = ServerOptions &
  Readonly<{ http?: HttpOptions | undefined; onListening?: ((url: string) => void) | undefined }>;

/** The context every call runs on: the PostgreSQL store's one connection takes one call at a time. */
const servedContext = (context: OperationContext): OperationContext =>
  context.store.kind === 'postgres' ? { ...context, store: oneCallAtATime(context.store) } : context;

/** Serve until the client closes standard input, or until SIGINT or SIGTERM over HTTP. */
export const serve = (options: ServeOptions): Promise<void> => {
  const served: ServerOptions = {
    context: servedContext(options.context),
    ...(options.dir === undefined ? {} : { dir: options.dir }),
  };
  return options.http === undefined
    ? serveStdio(served)
    : serveHttp(served, options.http, options.onListening ?? (() => undefined));
};
