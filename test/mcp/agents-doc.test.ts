import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { fencedBlocks, ROOT } from '../docs/markdown.js';
import { httpClient, serverEnv, startHttp, stopAll } from '../support/mcp-clients.js';
import { tempDir } from '../support/tmp.js';

// docs/agents.md gives the configurations an agent's client reads. Each is taken from the page as
// written, the clone's path put in for /path/to/clearance, and the server it names is started the
// way the client would start or reach it: the SDK's own client then lists the thirteen tools. The
// issue this answers: the page once configured `npx clearance mcp`, which from a clone fails.

afterEach(stopAll);

type Entry = Readonly<{
  command?: string;
  args?: ReadonlyArray<string>;
  url?: string;
  headers?: Readonly<Record<string, string>>;
}>;

const page = readFileSync(path.join(ROOT, 'docs', 'agents.md'), 'utf8');
const configurations = fencedBlocks(page, 'json')
  .map((block) => ({ line: block.line, parsed: JSON.parse(block.code) as Record<string, unknown> }))
  .flatMap(({ line, parsed }) => {
    const servers = (parsed.mcpServers ?? parsed.servers) as Record<string, Entry> | undefined;
    return servers?.clearance === undefined ? [] : [{ line, entry: servers.clearance }];
  });

const TOKEN = 'a-token-long-enough-to-not-be-guessed';
/** How a client's configuration reads the token from its environment: `${NAME}`, written as text. */
const TOKEN_REFERENCE = ['$', '{CLEARANCE_MCP_TOKEN}'].join('');

describe('the configurations docs/agents.md gives', () => {
  it('holds at least one for stdio and one for HTTP, and none through npx', () => {
    expect(configurations.filter((c) => c.entry.command !== undefined).length).toBeGreaterThanOrEqual(2);
    expect(configurations.filter((c) => c.entry.url !== undefined).length).toBeGreaterThanOrEqual(1);
    for (const { entry } of configurations) expect(entry.command).not.toBe('npx');
  });

  it.each(configurations.filter((c) => c.entry.command !== undefined))(
    'line $line: the stdio server it starts lists the tools',
    async ({ entry }) => {
      expect(entry.command).toBe('node');
      const args = (entry.args ?? []).map((a) => a.replace('/path/to/clearance', ROOT));
      const client = new Client({ name: 'agents-doc', version: '0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args,
          cwd: await tempDir(),
          env: serverEnv(),
          stderr: 'pipe',
        }),
      );
      try {
        expect((await client.listTools()).tools).toHaveLength(14);
      } finally {
        await client.close();
      }
    },
  );

  it.each(configurations.filter((c) => c.entry.url !== undefined))(
    'line $line: the HTTP server it names, started with a token, lists the tools to a client sending its headers',
    async ({ entry }) => {
      const { url } = await startHttp(['--dir', await tempDir()], '127.0.0.1:0', {
        CLEARANCE_MCP_TOKEN: TOKEN,
      });
      const documented = new URL(entry.url as string);
      expect(documented.pathname).toBe('/mcp');
      expect(documented.hostname).toBe('127.0.0.1');
      const headers = Object.fromEntries(
        Object.entries(entry.headers ?? {}).map(([k, v]) => [k, v.replace(TOKEN_REFERENCE, TOKEN)]),
      );
      const client = await httpClient(url, headers);
      expect((await client.listTools()).tools).toHaveLength(14);
    },
  );
});
