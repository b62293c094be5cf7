import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLI, cli } from '../support/cli.js';
import { tempDir } from '../support/git-repo.js';
import { adminOf } from '../support/pg-admin.js';
import { databaseOf, terminateClearanceBackends } from '../support/pg-backends.js';
import { freshDatabase } from '../support/stores.js';

// An agent can be prompt-injected: every tool argument is hostile. Through the SDK's own client,
// over stdio, against the built `clearance mcp`: flag-shaped run ids and values, store URLs where a
// path goes. Each is refused as invalid input or kept as plain data, and a listener standing in for
// a database the agent names never sees a connection.

/** A TCP listener on loopback that counts who connects: the "victim" database an argument names. */
let victim: Server;
let victimPort = 0;
let connections = 0;
beforeAll(async () => {
  victim = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => victim.listen(0, '127.0.0.1', resolve));
  victimPort = (victim.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => victim.close(() => resolve())));

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** `clearance <globals> mcp` as a real process, with a password in its environment to steal. */
const serve = async (
  globals: ReadonlyArray<string>,
  cwd = tempDir('clearance-mcp-cwd-'),
): Promise<Client> => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('CLEARANCE_'),
    ),
  );
  const client = new Client({ name: 'hostile-agent', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...globals, 'mcp'],
      cwd,
      env: { ...env, PGPASSWORD: 'the-servers-secret', CLEARANCE_ACTOR: 'review-agent', NO_COLOR: '1' },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
};

/** A call the server refuses, an invalid argument as any other refusal: a tool error, `code: message`. */
const refusedWith = async (client: Client, name: string, args: Record<string, unknown>): Promise<string> => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const { error } = result.structuredContent as { error: { code: string; message: string } };
  return `${error.code}: ${error.message}`;
};

const ok = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  expect(result.isError ?? false, text).toBe(false);
  return result.structuredContent as Record<string, unknown>;
};

describe('clearance mcp, driven by a hostile agent', () => {
  it('refuses flag-shaped run ids and store URLs where a path goes, and connects nowhere', async () => {
    const store = tempDir('clearance-mcp-store-');
    // started with no store flag (the default store, ./.clearance here), as most agents start it
    const bare = await serve([], store);
    const url = `postgres://victim@127.0.0.1:${victimPort}/db`;
    expect(await refusedWith(bare, 'status', { runId: `--store=${url}` })).toMatch(
      /^invalid-run-id: .*run id/,
    );
    expect(connections).toBe(0);
    const client = await serve(['--dir', store]);
    for (const runId of [
      `--store=${url}`,
      `--dir=${path.join(store, 'elsewhere')}`,
      '--by=Ada',
      '-x',
      '../x',
      'a b',
    ]) {
      for (const tool of ['status', 'next', 'findings', 'explain', 'feedback'])
        expect(await refusedWith(client, tool, { runId }), `${tool} ${runId}`).toMatch(
          /^invalid-run-id: .*run id/,
        );
    }
    // a store URL is never a path a tool reads or waits on
    const wait = { runId: 'pr-1', round: 1, inputSha: 'abc', timeoutMs: 1000 };
    expect(await refusedWith(client, 'wait', { ...wait, path: url })).toMatch(/^usage: .*not a URL/);
    expect(await refusedWith(client, 'record', { runId: 'pr-1', waitFor: url })).toMatch(
      /^usage: .*not a URL/,
    );
    expect(await refusedWith(client, 'open', { runId: 'pr-1', repo: `file://${store}` })).toMatch(
      /^usage: .*not a URL/,
    );
    // nothing may name the store, the actor or the lock timeout: unknown keys are refused
    for (const extra of [{ store: url }, { dir: store }, { by: 'Ada Lovelace' }, { lockTimeout: 1 }])
      expect(await refusedWith(client, 'status', { runId: 'pr-1', ...extra })).toMatch(
        /^usage: .*unknown key/,
      );
    expect(existsSync(path.join(store, 'elsewhere'))).toBe(false);
    expect(connections).toBe(0);
  });

  it('keeps flag-shaped values as plain data: an input named --store=…, a rename holding =, a touched file named --dir=x', async () => {
    const store = tempDir('clearance-mcp-store-');
    const client = await serve(['--dir', store]);
    const flagShaped = `--store=postgres://victim@127.0.0.1:${victimPort}/db`;
    const opened = await ok(client, 'open', { runId: 'pr-1', inputSha: flagShaped, touched: ['--dir=x'] });
    expect(opened.capture).toMatchObject({ inputSha: flagShaped, touchedFiles: ['--dir=x'] });
    const candidate = {
      file: 'src/a.js',
      line: 1,
      category: 'correctness',
      summary: 'the handle is never closed',
      severity: 'major',
      confirmed: true,
      evidence: 'abort mid-read',
    };
    const report = {
      runId: 'pr-1',
      round: 1,
      inputSha: flagShaped,
      completed: true,
      candidates: [candidate],
    };
    expect(await ok(client, 'record', { runId: 'pr-1', report })).toMatchObject({ round: 1 });
    // a rename is two strings: `=` in either stays where it was (argv once split it on the first)
    const captured = await ok(client, 'capture', {
      runId: 'pr-1',
      inputSha: 'b'.repeat(40),
      renames: [{ from: 'a=b.js', to: 'c=d.js' }],
    });
    expect(captured.capture).toMatchObject({ renames: [{ from: 'a=b.js', to: 'c=d.js' }] });
    // the policy is a preset's name, never a flag or a file
    expect(await refusedWith(client, 'open', { runId: 'pr-2', policy: '--policy-file=/etc/passwd' })).toMatch(
      /^usage: unknown policy/,
    );
    expect(connections).toBe(0);
    // and the log is the store the server was started with, holding the values as sent
    const log = readFileSync(path.join(store, 'runs', 'pr-1.jsonl'), 'utf8');
    expect(log).toContain('"from":"a=b.js","to":"c=d.js"');
    expect(log).toContain(JSON.stringify(flagShaped));
  });

  it('refuses hostile names and paths in a report the SDK validated, and writes nothing', async () => {
    const store = tempDir('clearance-mcp-store-');
    const client = await serve(['--dir', store]);
    await ok(client, 'open', { runId: 'pr-1', inputSha: 'a'.repeat(40) });
    const before = readFileSync(path.join(store, 'runs', 'pr-1.jsonl'));
    const candidate = {
      line: 1,
      category: 'correctness',
      summary: 'x',
      severity: 'major',
      confirmed: true,
      evidence: 'e',
    };
    for (const [hostile, code] of [
      [{ ...candidate, file: '../../etc/passwd' }, 'invalid-path'],
      [{ ...candidate, file: 'file:///etc/passwd' }, 'invalid-path'],
      [
        {
          ...candidate,
          file: 'a.js',
          summary: 'x\n::error file=.github/workflows/release.yml,line=1::forged',
        },
        'invalid-text',
      ],
    ] as const) {
      const report = {
        runId: 'pr-1',
        round: 1,
        inputSha: 'a'.repeat(40),
        completed: true,
        candidates: [hostile],
      };
      expect(await refusedWith(client, 'record', { runId: 'pr-1', report })).toMatch(
        new RegExp(`^${code}: `),
      );
    }
    const reviewer = {
      runId: 'pr-1',
      round: 1,
      inputSha: 'a'.repeat(40),
      completed: true,
      reviewer: 'Ada\nconverged',
    };
    expect(await refusedWith(client, 'record', { runId: 'pr-1', report: reviewer })).toMatch(
      /^invalid-actor: /,
    );
    expect(readFileSync(path.join(store, 'runs', 'pr-1.jsonl'))).toEqual(before);
  });

  it('serves the store it was started with: --store postgres://… is the store every call uses', async () => {
    const url = await freshDatabase();
    const client = await serve(['--store', url]);
    await ok(client, 'open', { runId: 'pg-1', inputSha: 'a'.repeat(40) });
    // the run is in the database, not in a file store next to the server
    const status = await cli(['--store', url, 'status', 'pg-1', '--json']);
    expect(status.json).toMatchObject({ ok: true, runId: 'pg-1', captured: true });
    expect(await ok(client, 'status', { runId: 'pg-1' })).toMatchObject({ runId: 'pg-1', seq: 2 });
    // the one connection it holds is cut (a server restart, an idle timeout): the next call makes it again
    const admin = await adminOf(inject('pgUrl') as string);
    expect(await terminateClearanceBackends(admin, databaseOf(url))).toBe(1);
    expect(await ok(client, 'status', { runId: 'pg-1' })).toMatchObject({ runId: 'pg-1', seq: 2 });
  });
});
