import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ClearanceError } from '../errors.js';
import { bearerMatches, isLoopback, originProblem } from './http-guard.js';
import { MAX_REQUEST_BYTES, oversizedRequest } from './request-bound.js';
import { createServer, type ServerOptions } from './server.js';

/** Where and how the HTTP server listens: `clearance mcp --http [HOST:]PORT`, `CLEARANCE_MCP_TOKEN`. */
export type HttpOptions = Readonly<{ host: string; port: number; token?: string | undefined }>;

/** The endpoint, as the Streamable HTTP transport names it. */
export const MCP_PATH = '/mcp';
/** Sessions held at once: each is a server of its own; past this an initialize is answered 503. */
const MAX_SESSIONS = 100;
/** A session with no request open for this long is closed (its client re-initializes on 404). */
const IDLE_MS = 60 * 60 * 1000;
/** A token shorter than this is refused at start: it would be guessed. */
const MIN_TOKEN_LENGTH = 16;

type Session = { transport: StreamableHTTPServerTransport; lastSeen: number; open: number };

/** A JSON-RPC error as the answer to a request the transport never saw, its `data.code` naming it. */
const refuse = (
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  data: Readonly<Record<string, unknown>> = {},
): void => {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: `${code}: ${message}`, data: { code, ...data } },
    }),
  );
};

type Body =
  | Readonly<{ kind: 'read'; value: unknown }>
  | Readonly<{ kind: 'oversized'; bytes?: number }>
  | Readonly<{ kind: 'malformed' }>;

/**
 * How much of an oversized body is read past (never kept) before the answer: a client sends its
 * whole request before it reads the answer, and a connection cut under it says only "fetch
 * failed". Past this the connection is cut all the same.
 */
const READ_PAST_BYTES = 64 * 1024 * 1024;

/**
 * A POST's body, kept to `MAX_REQUEST_BYTES`: an oversized one is read past to its end, none of it
 * kept beyond the bound, then refused; one declared or found larger than `READ_PAST_BYTES` is
 * refused at once, its connection cut.
 */
const readBody = async (req: IncomingMessage): Promise<Body> => {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > READ_PAST_BYTES) return { kind: 'oversized', bytes: declared };
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > READ_PAST_BYTES) return { kind: 'oversized' };
    if (bytes <= MAX_REQUEST_BYTES) chunks.push(chunk);
  }
  if (bytes > MAX_REQUEST_BYTES) return { kind: 'oversized', bytes };
  try {
    return { kind: 'read', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { kind: 'malformed' };
  }
};

/** Answer an oversized body 413 with the named error, and close the connection. */
const refuseOversized = (req: IncomingMessage, res: ServerResponse, bytes: number | undefined): void => {
  if (res.headersSent) return;
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: oversizedRequest(bytes) }), () => {
    if (!req.complete) req.destroy();
  });
};

/** A listening HTTP server: where, and how to stop it (every session closed, every connection cut). */
export type Listening = Readonly<{ url: string; close: () => Promise<void> }>;

/**
 * Listen for MCP over Streamable HTTP at `/mcp`: the same server as on stdio, one per session, all
 * on the one store the process opened. A request passes, in order: the path; `Host` and `Origin`
 * (`http-guard.ts`); the bearer token, when one is set; the body's size; then the session (an
 * initialize makes one, any other request names one). A port of 0 is the system's choice: `url`
 * says which.
 */
export const listenHttp = async (options: ServerOptions, http: HttpOptions): Promise<Listening> => {
  const loopback = isLoopback(http.host.includes(':') ? `[${http.host}]` : http.host);
  if (!loopback && http.token === undefined)
    throw new ClearanceError(
      'usage',
      `mcp --http ${http.host}:${http.port} would serve the store to the network unauthenticated: set CLEARANCE_MCP_TOKEN (a bearer token every client sends), or bind 127.0.0.1`,
    );
  if (http.token !== undefined && http.token.length < MIN_TOKEN_LENGTH)
    throw new ClearanceError(
      'usage',
      `CLEARANCE_MCP_TOKEN is shorter than ${MIN_TOKEN_LENGTH} characters: it would be guessed`,
    );
  const sessions = new Map<string, Session>();

  const opened = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    if (sessions.size >= MAX_SESSIONS)
      return refuse(
        res,
        503,
        'too-many-sessions',
        `the server holds ${MAX_SESSIONS} sessions: end one (DELETE) or try later`,
      );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    const session: Session = { transport, lastSeen: Date.now(), open: 0 };
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createServer(options).connect(transport);
    await within(session, req, res, body);
  };

  /** Hand a request to its session's transport, counting it open until its response closes. */
  const within = async (session: Session, req: IncomingMessage, res: ServerResponse, body?: unknown) => {
    session.lastSeen = Date.now();
    session.open += 1;
    res.once('close', () => {
      session.open -= 1;
      session.lastSeen = Date.now();
    });
    await session.transport.handleRequest(req, res, body);
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_PATH)
      return refuse(res, 404, 'not-found', `the MCP endpoint is ${MCP_PATH}`);
    const foreign = originProblem(req.headers, loopback);
    if (foreign !== undefined) return refuse(res, 403, 'forbidden-origin', foreign);
    if (http.token !== undefined && !bearerMatches(req.headers.authorization, http.token))
      return refuse(
        res,
        401,
        'unauthorized',
        'send Authorization: Bearer <the token the server was started with>',
        {
          'www-authenticate': 'Bearer',
        },
      );
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method === 'POST') {
      const body = await readBody(req);
      if (body.kind === 'oversized') return refuseOversized(req, res, body.bytes);
      if (body.kind === 'malformed') return refuse(res, 400, 'malformed', 'the request is not JSON');
      if (sessionId === undefined) {
        if (!isInitializeRequest(body.value))
          return refuse(res, 400, 'no-session', 'initialize first: no Mcp-Session-Id was sent');
        return opened(req, res, body.value);
      }
      if (session === undefined) return refuse(res, 404, 'no-session', 'no such session: initialize again');
      return within(session, req, res, body.value);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (session === undefined)
        return refuse(
          res,
          sessionId === undefined ? 400 : 404,
          'no-session',
          'name a session (Mcp-Session-Id)',
        );
      return within(session, req, res);
    }
    return refuse(res, 405, 'method-not-allowed', 'use POST, GET or DELETE', { allow: 'GET, POST, DELETE' });
  };

  const server = createHttpServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      // a request the server could not answer: said to its client, and the server goes on
      refuse(res, 500, 'internal', error instanceof Error ? error.message : String(error));
    });
  });
  const sweep = setInterval(() => {
    for (const [id, s] of sessions)
      if (s.open === 0 && Date.now() - s.lastSeen > IDLE_MS) {
        sessions.delete(id);
        void s.transport.close();
      }
  }, 60_000);
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new ClearanceError(
          'usage',
          `mcp --http cannot listen on ${http.host}:${http.port}: ${error.code ?? error.message}`,
        ),
      ),
    );
    server.listen(http.port, http.host, () => resolve());
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : http.port;
  return {
    url: `http://${http.host.includes(':') ? `[${http.host}]` : http.host}:${port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        for (const s of sessions.values()) void s.transport.close();
        sessions.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** `clearance mcp --http`: listen, say where (`onListening`), and serve until SIGINT or SIGTERM. */
export const serveHttp = async (
  options: ServerOptions,
  http: HttpOptions,
  onListening: (url: string) => void,
): Promise<void> => {
  const listening = await listenHttp(options, http);
  onListening(listening.url);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await listening.close();
};
