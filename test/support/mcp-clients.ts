import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './cli.js';

// The built `clearance mcp`, as real processes, and the SDK's own client on it, over stdio or
// Streamable HTTP. Everything started here is stopped by `stopAll` (each test file's afterEach).

const started: Array<() => Promise<void>> = [];

/** Stop every client and server started since the last call. */
export const stopAll = async (): Promise<void> => {
  for (const stop of started.splice(0).reverse()) await stop().catch(() => undefined);
};

/** This process's environment less clearance's own, with a fixed actor and no colour. */
export const serverEnv = (extra: Readonly<Record<string, string>> = {}): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('CLEARANCE_'),
    ),
  ),
  CLEARANCE_ACTOR: 'review-agent',
  NO_COLOR: '1',
  ...extra,
});

/** `clearance <globals> mcp` over stdio, with the SDK's client connected. */
export const stdioClient = async (globals: ReadonlyArray<string>, cwd?: string): Promise<Client> => {
  const client = new Client({ name: 'clearance-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...globals, 'mcp'],
      ...(cwd === undefined ? {} : { cwd }),
      env: serverEnv(),
      stderr: 'pipe',
    }),
  );
  started.push(() => client.close());
  return client;
};

export type HttpServer = Readonly<{ url: string; child: ChildProcess; stderr: () => string }>;

/**
 * `clearance <globals> mcp --http <address>` as a real process, once it says where it listens; or
 * the failure it printed and its exit status, when it never does.
 */
export const startHttp = async (
  globals: ReadonlyArray<string>,
  address = '0',
  env: Readonly<Record<string, string>> = {},
): Promise<HttpServer> => {
  const child = spawn(process.execPath, [CLI, ...globals, 'mcp', '--http', address], {
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stdout.resume();
  const exited = once(child, 'exit');
  started.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (text: string) => {
      err += text;
      const found = /serving (\S+)/.exec(err)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`mcp --http exited ${code}: ${err}`)));
  });
  return { url, child, stderr: () => err };
};

/** The SDK's Streamable HTTP client on `url`, sending `headers` with every request. */
export const httpClient = async (
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<Client> => {
  const client = new Client({ name: 'clearance-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  started.push(() => client.close());
  return client;
};

export const call = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

/** A result that is not a refusal: its structured content, which is also its text, as JSON. */
export const succeeded = (result: CallToolResult): Record<string, unknown> => {
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  if (result.isError === true) throw new Error(`refused: ${text}`);
  return result.structuredContent as Record<string, unknown>;
};

export type Refusal = Readonly<{
  code: string;
  message: string;
  fields: ReadonlyArray<string>;
  next: Readonly<{ tool?: string; arguments?: Record<string, unknown>; person?: string }>;
}>;

/** A refusal: a tool error whose structured content is `{ok: false, error}`, and its text the same JSON. */
export const refused = (result: CallToolResult): Refusal => {
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  if (result.isError !== true) throw new Error(`not refused: ${text}`);
  const parsed = JSON.parse(text) as { ok: boolean; error: Refusal };
  if (JSON.stringify(parsed) !== JSON.stringify(result.structuredContent))
    throw new Error('the text is not the structured content');
  if (parsed.ok !== false) throw new Error(`ok is ${parsed.ok}`);
  return parsed.error;
};
