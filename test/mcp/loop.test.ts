import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { findingId } from '../../src/events/finding-id.js';
import { PRESETS } from '../../src/events/policy.js';
import { createServer } from '../../src/mcp/server.js';
import { open } from '../../src/operations/open.js';
import { fileStore } from '../../src/store/store.js';
import { CLI } from '../support/cli.js';
import { makeRepo, tempDir } from '../support/git-repo.js';

// The whole loop an agent drives, through the SDK's own client, over stdio, against the built CLI
// (`node dist/cli.js mcp`) in a real git repository: the store is git's own .git/clearance. The
// other tests talk to the same server code in this process, over the SDK's in-memory transport,
// as `clearance --dir <store> mcp` would serve them: the process is the point of the first alone.

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});
const connect = async (cwd: string): Promise<Client> => {
  const client = new Client({ name: 'clearance-test', version: '0.0.0' });
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd,
      env: { ...env, CLEARANCE_ACTOR: 'review-agent', NO_COLOR: '1' },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
};

/** The server `clearance --dir <store> --by review-agent mcp` runs, in this process, and the SDK's client on it. */
const connectHere = async (store: string): Promise<Client> => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createServer({ context: { store: fileStore(store), by: 'review-agent' }, dir: store });
  await server.connect(serverSide);
  const client = new Client({ name: 'clearance-test', version: '0.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
};

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** The structured result, which must also be the text content, byte for byte as JSON. */
const structured = (result: CallToolResult): Record<string, unknown> => {
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  expect(result.isError ?? false, text).toBe(false);
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
};

/** A refusal: a tool error whose structured content is the failure, and its text the same JSON. */
const refusal = (
  result: CallToolResult,
): { code: string; message: string; next: Record<string, unknown> } => {
  expect(result.isError).toBe(true);
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  const parsed = JSON.parse(text) as {
    ok: boolean;
    error: { code: string; message: string; next: Record<string, unknown> };
  };
  expect(parsed).toEqual(result.structuredContent);
  expect(parsed.ok).toBe(false);
  return parsed.error;
};

/** A major a round 1 opens in src/service.js, for the tests that need one. */
const LEAK = {
  file: 'src/service.js',
  line: 1,
  category: 'correctness',
  summary: 'the handle is never closed',
  severity: 'major',
  confirmed: true,
  evidence: 'abort mid-read: one more open handle',
};

const TOOL_NAMES = [
  'capture',
  'checks',
  'dispute',
  'explain',
  'feedback',
  'findings',
  'gate',
  'may',
  'next',
  'open',
  'record',
  'reproduce',
  'status',
  'wait',
];

describe('clearance mcp', () => {
  it('offers one tool per loop command, each with an input schema and no output schema, and never rule or extend', async () => {
    const client = await connectHere(tempDir('clearance-mcp-'));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      // a client validates even a refusal's structured content against an output schema
      expect(tool.outputSchema).toBeUndefined();
    }
    expect(client.getInstructions()).toMatch(/rule and extend are not tools: .*only a named person decides/);
  });

  it('drives a loop: open, record, capture, record with decisions, gate', async () => {
    const repo = makeRepo();
    repo.write('src/service.js', 'open()\nread()\n');
    const first = repo.commitAll('first');
    const client = await connect(repo.dir);

    const opened = structured(await call(client, 'open', { runId: 'pr-1', repo: repo.dir }));
    const capture1 = opened.capture as { inputSha: string; commit: string };
    expect(opened).toMatchObject({ ok: true, runId: 'pr-1', policy: 'default', seq: 2 });
    expect(capture1.commit).toBe(first);
    expect(opened.store).toBe(path.join(repo.dir, '.git', 'clearance'));

    // before convergence the gate refuses, as a tool error naming the code and the next tool
    expect(refusal(await call(client, 'gate', { runId: 'pr-1' }))).toMatchObject({
      code: 'no-review',
      next: { tool: 'record', arguments: { runId: 'pr-1' } },
    });

    const candidate = LEAK;
    const recorded1 = structured(
      await call(client, 'record', {
        runId: 'pr-1',
        report: {
          runId: 'pr-1',
          round: 1,
          inputSha: capture1.inputSha,
          completed: true,
          candidates: [candidate],
        },
      }),
    );
    const id = findingId(candidate);
    expect(recorded1).toMatchObject({ ok: true, round: 1, status: 'open', opened: [id] });
    expect(structured(await call(client, 'next', { runId: 'pr-1' }))).toMatchObject({
      action: 'capture',
      round: 2,
    });
    expect(structured(await call(client, 'may', { runId: 'pr-1', stage: 'experts' }))).toMatchObject({
      ok: true,
      allowed: false,
      rejection: { code: 'no-revision' },
    });

    repo.write('src/service.js', 'open()\nread()\nclose()\n');
    const second = repo.commitAll('close it');
    const captured = structured(await call(client, 'capture', { runId: 'pr-1' }));
    expect(captured).toMatchObject({
      ok: true,
      round: 2,
      capture: { commit: second, touchedFiles: ['src/service.js'] },
    });
    const inputSha = (captured.capture as { inputSha: string }).inputSha;

    // a report without the decision its touched file needs is refused, and nothing is written
    const missing = refusal(
      await call(client, 'record', {
        runId: 'pr-1',
        report: { runId: 'pr-1', round: 2, inputSha, completed: true },
      }),
    );
    expect(missing.code).toBe('missing-decision');
    expect(structured(await call(client, 'status', { runId: 'pr-1' }))).toMatchObject({ round: 1, seq: 4 });

    const recorded2 = structured(
      await call(client, 'record', {
        runId: 'pr-1',
        findingsMarkdown: `## Findings\n\n- [fixed] ${id.slice(0, 12)} :: closed on every path\n`,
      }),
    );
    expect(recorded2).toMatchObject({
      ok: true,
      round: 2,
      status: 'converged',
      changed: [{ id, from: 'open', to: 'fixed' }],
    });
    expect(structured(await call(client, 'findings', { runId: 'pr-1' }))).toMatchObject({
      findings: [{ id, status: 'fixed', blocking: true }],
    });
    expect(structured(await call(client, 'explain', { runId: 'pr-1' }))).toMatchObject({
      status: 'converged',
      blocking: [],
    });
    expect(
      (structured(await call(client, 'feedback', { runId: 'pr-1' })).markdown as string).length,
    ).toBeGreaterThan(0);

    expect(structured(await call(client, 'gate', { runId: 'pr-1' }))).toMatchObject({
      ok: true,
      runId: 'pr-1',
      approved: true,
      inputSha,
      boundBy: 'commit',
    });
    // the branch rebased onto a main that moved on: refused, unless the gate is asked by patch
    repo.git('checkout', '-q', '-b', 'feature');
    repo.git('checkout', '-q', 'main');
    repo.git('reset', '-q', '--hard', first);
    repo.write('README.md', 'elsewhere\n');
    repo.commitAll('main moves on');
    repo.git('checkout', '-q', 'feature');
    repo.git('rebase', '-q', 'main');
    expect(refusal(await call(client, 'gate', { runId: 'pr-1' })).code).toBe('head-moved');
    expect(structured(await call(client, 'gate', { runId: 'pr-1', base: 'main' }))).toMatchObject({
      ok: true,
      approved: true,
      boundBy: 'patch',
      byPatch: { reviewed: second, commit: repo.git('rev-parse', 'HEAD').trim() },
    });
  });

  it('re-runs a reproduction first: next lists it, reproduce records it, a fixed decision is then refused', async () => {
    const client = await connectHere(tempDir('clearance-mcp-'));
    const input = (label: string) => label.padEnd(40, '0');
    const candidate = {
      ...LEAK,
      reproduction: { command: 'npm test -- abort', expected: 'fails with EMFILE' },
    };
    const id = findingId(candidate);
    structured(await call(client, 'open', { runId: 'pr-2', inputSha: input('a') }));
    const round1 = {
      runId: 'pr-2',
      round: 1,
      inputSha: input('a'),
      completed: true,
      candidates: [candidate],
    };
    structured(await call(client, 'record', { runId: 'pr-2', report: round1 }));
    structured(
      await call(client, 'capture', { runId: 'pr-2', inputSha: input('b'), touched: ['src/service.js'] }),
    );
    expect(structured(await call(client, 'next', { runId: 'pr-2' }))).toMatchObject({
      action: 'rerun-reproductions',
      reproductions: [{ findingId: id, command: 'npm test -- abort', outcome: null }],
    });
    const rerun = { runId: 'pr-2', finding: id.slice(0, 12), stillFails: true, output: 'EMFILE\n' };
    expect(structured(await call(client, 'reproduce', rerun))).toMatchObject({
      findingId: id,
      outcome: 'still-fails',
      outputSha: expect.stringMatching(/^[0-9a-f]{64}$/),
      alreadyRecorded: false,
      pending: 0,
    });
    const fixed = { id, status: 'fixed', evidence: 'closed' };
    const round2 = { runId: 'pr-2', round: 2, inputSha: input('b'), completed: true, decisions: [fixed] };
    expect(refusal(await call(client, 'record', { runId: 'pr-2', report: round2 })).code).toBe(
      'reproduction-still-fails',
    );
  });

  it('disputes a finding as the author: the next round must rule on it, untouched', async () => {
    const client = await connectHere(tempDir('clearance-mcp-'));
    const input = (label: string) => label.padEnd(40, '0');
    const candidate = LEAK;
    const id = findingId(candidate);
    structured(await call(client, 'open', { runId: 'pr-4', inputSha: input('a') }));
    const round1 = {
      runId: 'pr-4',
      round: 1,
      inputSha: input('a'),
      completed: true,
      candidates: [candidate],
    };
    structured(await call(client, 'record', { runId: 'pr-4', report: round1 }));
    const reason = 'the pool closes it on abort';
    expect(
      structured(await call(client, 'dispute', { runId: 'pr-4', finding: id.slice(0, 8), reason })),
    ).toMatchObject({
      ok: true,
      findingId: id,
      round: 2,
      reason,
      alreadyRecorded: false,
      status: 'open',
    });
    // a reason of two lines is refused at the door, as on the command line
    expect(
      refusal(await call(client, 'dispute', { runId: 'pr-4', finding: id, reason: 'one\ntwo' })).code,
    ).toBe('invalid-text');
    structured(
      await call(client, 'capture', { runId: 'pr-4', inputSha: input('b'), touched: ['src/other.js'] }),
    );
    const round2 = { runId: 'pr-4', round: 2, inputSha: input('b'), completed: true };
    expect(refusal(await call(client, 'record', { runId: 'pr-4', report: round2 })).code).toBe(
      'undecided-dispute',
    );
    const ruled = { ...round2, decisions: [{ id, status: 'withdrawn', evidence: 'right: it does' }] };
    expect(structured(await call(client, 'record', { runId: 'pr-4', report: ruled }))).toMatchObject({
      status: 'converged',
    });
  });

  it('records CI checks: next asks for them, a report waits for them, a failed required check ends the round', async () => {
    const store = tempDir('clearance-mcp-');
    // a policy with required checks is a file's, on the command line: the tool opens presets only
    const policy = {
      ...PRESETS.default,
      name: 'ci',
      stages: [],
      checks: { required: ['test'], optional: ['docs'], expectedSkips: [] },
    };
    const input = (label: string) => label.padEnd(40, '0');
    await open({ store: fileStore(store), by: 'tester' }, { runId: 'pr-3', policy, inputSha: input('a') });
    const client = await connectHere(store);
    expect(structured(await call(client, 'next', { runId: 'pr-3' }))).toMatchObject({
      action: 'record-checks',
      round: 1,
      required: ['test'],
    });
    const round1 = { runId: 'pr-3', round: 1, inputSha: input('a'), completed: true };
    expect(refusal(await call(client, 'record', { runId: 'pr-3', report: round1 })).code).toBe(
      'checks-not-recorded',
    );
    const hostile = refusal(
      await call(client, 'checks', {
        runId: 'pr-3',
        checks: [{ name: 'test', state: 'passed', url: 'javascript:alert(1)' }],
      }),
    );
    expect(hostile.code).toBe('invalid-text');
    const log = 'https://github.com/o/r/actions/runs/9';
    const failed = structured(
      await call(client, 'checks', {
        runId: 'pr-3',
        checks: [
          { name: 'test', state: 'failed', url: log },
          { name: 'docs', state: 'failed' },
        ],
      }),
    );
    expect(failed).toMatchObject({
      ok: true,
      round: 1,
      result: 'ci_failed',
      failed: [{ name: 'test', state: 'failed', url: log }],
      noted: [{ name: 'docs', state: 'failed' }],
      reason: `required check test (${log}) failed`,
      status: 'open',
    });
    structured(await call(client, 'capture', { runId: 'pr-3', inputSha: input('b') }));
    const passed = structured(
      await call(client, 'checks', { runId: 'pr-3', checks: [{ name: 'test', state: 'passed', url: log }] }),
    );
    expect(passed).toMatchObject({ result: 'recorded', round: 2, failed: [], reason: null });
    const round2 = { runId: 'pr-3', round: 2, inputSha: input('b'), completed: true };
    expect(structured(await call(client, 'record', { runId: 'pr-3', report: round2 }))).toMatchObject({
      round: 2,
      status: 'converged',
    });
  });

  it('stops a wait when the client cancels the request, and goes on serving', async () => {
    const dir = tempDir('clearance-mcp-');
    const client = await connectHere(path.join(dir, 'store'));
    const cancel = new AbortController();
    const wait = {
      path: path.join(dir, 'never.json'),
      runId: 'pr-1',
      round: 1,
      inputSha: 'abc',
      timeoutMs: 600_000,
    };
    const cancelled = client.callTool({ name: 'wait', arguments: wait }, undefined, {
      signal: cancel.signal,
    });
    setTimeout(() => cancel.abort(new Error('the agent moved on')), 100);
    await expect(cancelled).rejects.toThrow(/the agent moved on|abort/i);
    expect(refusal(await call(client, 'status', { runId: 'nothing' })).code).toBe('run-missing');
  });
});

describe('a tool runs its operation in process', () => {
  it('and an aborted signal interrupts a wait as Ctrl-C does: a tool error, aborted', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'clearance-mcp-'));
    const client = await connectHere(dir);
    const cancel = new AbortController();
    const waiting = client.callTool(
      {
        name: 'wait',
        arguments: {
          path: path.join(dir, 'never.json'),
          runId: 'r',
          round: 1,
          inputSha: 'abc',
          timeoutMs: 600_000,
        },
      },
      undefined,
      { signal: cancel.signal },
    );
    cancel.abort(new Error('the agent moved on'));
    await expect(waiting).rejects.toThrow(/the agent moved on|abort/i);
  });
});
