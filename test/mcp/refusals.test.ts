import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import {
  call,
  httpClient,
  refused,
  startHttp,
  stdioClient,
  stopAll,
  succeeded,
} from '../support/mcp-clients.js';
import { tempDir } from '../support/tmp.js';

// What an agent reads after a refusal, through the SDK's own client against the built server over
// both transports: a tool result with isError, the failure as structured content and as text, its
// code, the fields it names and a next step naming a tool (never a shell command). And the sizes a
// hostile or careless agent sends: each refused with a named error, the log untouched, nothing
// oversized written or echoed, and the server answering the next request.

afterEach(stopAll);

const TRANSPORTS = {
  stdio: (store: string) => stdioClient(['--dir', store]),
  http: async (store: string) => httpClient((await startHttp(['--dir', store])).url),
} as const;

const sha = (label: string) => label.padEnd(40, '0');
const logOf = (store: string, runId: string) => path.join(store, 'runs', `${runId}.jsonl`);
/** Every byte of the store's logs: what a refusal must leave as it was. */
const logs = (store: string): string =>
  readdirSync(path.join(store, 'runs'))
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => `${f}\n${readFileSync(path.join(store, 'runs', f), 'utf8')}`)
    .join('\n');

const opened = async (client: Client, runId = 'pr-1') =>
  succeeded(await call(client, 'open', { runId, inputSha: sha('a') }));

/** A call refused at the protocol: the error the SDK's client throws, as its message. */
const thrown = async (client: Client, name: string, args: Record<string, unknown>): Promise<string> => {
  try {
    await call(client, name, args);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${name} was answered`);
};

describe.each(Object.keys(TRANSPORTS) as Array<keyof typeof TRANSPORTS>)('over %s', (transport) => {
  const connect = TRANSPORTS[transport];

  it('an invalid argument and a refused report are tool errors with a code, the fields and a next tool; the log is unchanged', async () => {
    const store = await tempDir();
    const client = await connect(store);
    await opened(client);
    const before = readFileSync(logOf(store, 'pr-1'));

    const invalid = refused(
      await call(client, 'record', {
        runId: 'pr-1',
        report: {
          runId: 'pr-1',
          round: 1,
          inputSha: sha('a'),
          completed: true,
          decisions: [{ id: 'abcdef12', status: 'done', evidence: 'x' }],
        },
      }),
    );
    expect(invalid).toMatchObject({
      code: 'invalid-report',
      fields: ['report.decisions[0].status'],
      next: { tool: 'record', arguments: { runId: 'pr-1' } },
    });
    expect(invalid.message).toMatch(/decisions\[0\]\.status/);

    // an argument the tool does not take, and one of the wrong type: the same shape
    expect(refused(await call(client, 'status', { runId: 'pr-1', store: 'postgres://x' }))).toMatchObject({
      code: 'usage',
      fields: ['store'],
      next: { tool: 'status' },
    });
    expect(refused(await call(client, 'may', { runId: 'pr-1', stage: 7 }))).toMatchObject({
      code: 'usage',
      fields: ['stage'],
    });

    // a report every field of which is well formed, refused by a rule: round 2 has no input yet
    const rule = refused(
      await call(client, 'record', {
        runId: 'pr-1',
        report: { runId: 'pr-1', round: 2, inputSha: sha('a'), completed: true },
      }),
    );
    expect(rule.code).toBe('wrong-round');
    expect(rule.next).toEqual({ tool: 'next', arguments: { runId: 'pr-1' }, why: expect.any(String) });

    // a run that does not exist: the next step is the open tool, not a command line
    expect(refused(await call(client, 'status', { runId: 'nope' })).next).toMatchObject({
      tool: 'open',
      arguments: { runId: 'nope' },
    });
    // an invalid run id is never repeated in the next step
    expect(refused(await call(client, 'status', { runId: '--store=x' }))).toMatchObject({
      code: 'invalid-run-id',
      next: { tool: 'status', arguments: {} },
    });

    expect(readFileSync(logOf(store, 'pr-1'))).toEqual(before);
    // and the server goes on: the run is where it was
    expect(succeeded(await call(client, 'status', { runId: 'pr-1' }))).toMatchObject({ seq: 2, round: 0 });
  });

  it('refuses every oversized argument with a named error, writes none of it, echoes none of it, and serves the next call', async () => {
    const store = await tempDir();
    const client = await connect(store);
    await opened(client);
    const before = logs(store);
    const long = (n: number) => 'z'.repeat(n);
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['open', { runId: 'pr-2', inputSha: long(257) }, 'over-limit', 'inputSha'],
      [
        'open',
        { runId: 'pr-2', inputSha: sha('a'), touched: Array.from({ length: 400_000 }, () => 'a') },
        'over-limit',
        'touched',
      ],
      ['open', { runId: 'pr-2', inputSha: sha('a'), touched: [long(5000)] }, 'over-limit', 'touched[0]'],
      ['capture', { runId: 'pr-1', inputSha: long(257) }, 'over-limit', 'inputSha'],
      [
        'wait',
        { runId: 'pr-1', path: path.join(store, 'r.json'), round: 1, inputSha: long(257) },
        'over-limit',
        'inputSha',
      ],
      ['record', { runId: 'pr-1', end: 'none', reason: long(16_001) }, 'over-limit', 'reason'],
      ['may', { runId: 'pr-1', stage: long(129) }, 'over-limit', 'stage'],
      ['gate', { runId: 'pr-1', base: long(1025) }, 'over-limit', 'base'],
      ['gate', { runId: 'pr-1', repo: long(5000) }, 'over-limit', 'repo'],
      [
        'reproduce',
        { runId: 'pr-1', finding: 'abcdef12', stillFails: true, output: long(4 * 1024 * 1024 + 1) },
        'oversized',
        'output',
      ],
      [
        'record',
        { runId: 'pr-1', findingsMarkdown: long(4 * 1024 * 1024 + 1) },
        'oversized',
        'findingsMarkdown',
      ],
    ];
    for (const [tool, args, code, field] of cases) {
      const result = await call(client, tool, args);
      const refusal = refused(result);
      expect(refusal, `${tool} ${field}`).toMatchObject({ code, fields: [field], next: { tool } });
      // the answer says the size, never the value
      expect(JSON.stringify(result).length, `${tool} ${field}`).toBeLessThan(2000);
    }
    // a request over the bound is refused before it is read: a 6 MiB review, an 8 MiB inputSha
    expect(
      await thrown(client, 'record', { runId: 'pr-1', findingsMarkdown: long(6 * 1024 * 1024) }),
    ).toMatch(/oversized: the request .*is over the 5242880 bytes/);
    expect(await thrown(client, 'open', { runId: 'pr-3', inputSha: long(8 * 1024 * 1024) })).toMatch(
      /oversized: the request/,
    );
    expect(logs(store)).toEqual(before);
    expect(logs(store)).not.toContain('zzzz');
    expect(succeeded(await call(client, 'status', { runId: 'pr-1' }))).toMatchObject({ seq: 2 });
    // and what fits the bounds is taken, by the same tools
    expect(succeeded(await call(client, 'open', { runId: 'pr-2', inputSha: long(256) }))).toMatchObject({
      seq: 2,
    });
  });
});

describe('over stdio, a line over the bound', () => {
  it('is read past and answered with the named error for its id; the server keeps serving (it once exited 0)', async () => {
    const store = await tempDir();
    const client = await stdioClient(['--dir', store]);
    // 10 MiB and more on one line: the SDK's own reader closed the server here
    expect(
      await thrown(client, 'record', { runId: 'pr-1', findingsMarkdown: 'x'.repeat(10 * 1024 * 1024 + 1) }),
    ).toMatch(/^MCP error -32600: oversized: the request \(\d+ bytes\) is over/);
    expect(succeeded(await call(client, 'open', { runId: 'pr-1', inputSha: sha('a') }))).toMatchObject({
      seq: 2,
    });
  });
});

describe('the command line takes the same bounds', () => {
  it('refuses an inputSha longer than a report may name at open and capture, and writes nothing', async () => {
    const store = await tempDir();
    const long = 'f'.repeat(257);
    const open = await cli(['--dir', store, 'open', 'pr-1', '--input-sha', long, '--json']);
    expect(open.json).toMatchObject({ ok: false, error: { code: 'over-limit' } });
    expect(open.stdout).not.toContain(long);
    expect(readdirSync(store)).not.toContain('runs');
    expect((await cli(['--dir', store, 'open', 'pr-1', '--input-sha', sha('a')])).code).toBe(0);
    const before = readFileSync(logOf(store, 'pr-1'));
    const capture = await cli(['--dir', store, 'capture', 'pr-1', '--input-sha', long, '--json']);
    expect(capture.json).toMatchObject({ ok: false, error: { code: 'over-limit' } });
    const reason = await cli([
      '--dir',
      store,
      'record',
      'pr-1',
      '--end',
      'none',
      '--reason',
      'r'.repeat(16_001),
      '--json',
    ]);
    expect(reason.json).toMatchObject({ ok: false, error: { code: 'over-limit' } });
    expect(readFileSync(logOf(store, 'pr-1'))).toEqual(before);
  });
});
