import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findingId } from '../../src/events/finding-id.js';
import { acquireRunLock } from '../../src/store/lock.js';
import { runPaths } from '../../src/store/paths.js';
import { cli } from '../support/cli.js';
import { call, httpClient, refused, startHttp, stopAll, succeeded } from '../support/mcp-clients.js';
import { freshDatabase } from '../support/stores.js';
import { tempDir } from '../support/tmp.js';

// `clearance mcp --http`, a real process, reached over real HTTP on loopback: by the SDK's own
// client where a client's view is the point, by raw requests where a header is. Who may reach it
// (Host, Origin, the bearer token), many clients at once, and a client killed mid-call.

afterEach(stopAll);

const sha = (label: string) => label.padEnd(40, '0');
const TOKEN = 'a-token-long-enough-to-not-be-guessed';

type Raw = Readonly<{ status: number; headers: Record<string, unknown>; body: string }>;

/** One POST of an initialize to `url`, with these headers on top of what MCP asks for. */
const rawInitialize = (url: string, headers: Readonly<Record<string, string>> = {}): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          // an accepted initialize answers on an event stream that stays open: its first event is enough
          if (text.includes('\n\n')) res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const files = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : [];

describe('who may reach clearance mcp --http', () => {
  it('binds loopback by default, and refuses a foreign Host or Origin (DNS rebinding) before anything is read', async () => {
    const store = await tempDir();
    const { url } = await startHttp(['--dir', store]);
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const port = new URL(url).port;
    expect((await rawInitialize(url)).status).toBe(200);
    expect((await rawInitialize(url, { origin: `http://localhost:${port}` })).status).toBe(200);
    for (const headers of [
      { host: 'evil.example.com', origin: 'http://evil.example.com' },
      { host: `evil.example.com:${port}` },
      { origin: 'http://evil.example.com' },
      { origin: 'null' },
    ] as ReadonlyArray<Record<string, string>>) {
      const refusedRaw = await rawInitialize(url, headers);
      expect(refusedRaw.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(refusedRaw.body)).toMatchObject({ error: { data: { code: 'forbidden-origin' } } });
    }
    expect(files(store)).toEqual([]);
  });

  it('refuses to serve another address without a token, and with one answers 401 to a request without it or with another', async () => {
    const store = await tempDir();
    // 0.0.0.0 reaches every interface: refused before anything is bound
    const bare = await cli(['--dir', store, 'mcp', '--http', '0.0.0.0:0', '--json'], { process: true });
    expect(bare.code).toBe(2);
    expect(bare.json).toMatchObject({
      ok: false,
      error: { code: 'usage', message: expect.stringMatching(/CLEARANCE_MCP_TOKEN/) },
    });
    const short = await cli(['--dir', store, 'mcp', '--http', '0', '--json'], {
      process: true,
      env: { CLEARANCE_MCP_TOKEN: 'short' },
    });
    expect(short.json).toMatchObject({
      ok: false,
      error: { code: 'usage', message: expect.stringMatching(/shorter/) },
    });

    const { url } = await startHttp(['--dir', store], '127.0.0.1:0', { CLEARANCE_MCP_TOKEN: TOKEN });
    for (const authorization of [
      undefined,
      'Bearer wrong-token-of-some-length',
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
    ]) {
      const answer = await rawInitialize(url, authorization === undefined ? {} : { authorization });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
    // the SDK's client without the token cannot connect; with it, it drives a run
    await expect(httpClient(url)).rejects.toThrow(/401|unauthorized/i);
    expect(files(store)).toEqual([]);
    const client = await httpClient(url, { authorization: `Bearer ${TOKEN}` });
    expect(succeeded(await call(client, 'open', { runId: 'pr-1', inputSha: sha('a') }))).toMatchObject({
      seq: 2,
    });
  });
});

const candidate = (i: number) => ({
  file: `src/f${i}.js`,
  line: 1,
  category: 'correctness',
  summary: `finding ${i}`,
  severity: 'major',
  confirmed: true,
  evidence: 'read it',
  reproduction: { command: `npm test -- ${i}`, expected: 'fails' },
});

describe('many clients at once', () => {
  it('eight clients record into eight runs, and two clients racing on one run lose nothing; every log verifies', async () => {
    const store = await tempDir();
    const { url } = await startHttp(['--dir', store]);
    const clients = await Promise.all(Array.from({ length: 8 }, () => httpClient(url)));
    await Promise.all(
      clients.map(async (client, i) => {
        const runId = `run-${i}`;
        succeeded(await call(client, 'open', { runId, inputSha: sha('a') }));
        const report = { runId, round: 1, inputSha: sha('a'), completed: true, candidates: [candidate(i)] };
        expect(succeeded(await call(client, 'record', { runId, report }))).toMatchObject({
          round: 1,
          status: 'open',
        });
        succeeded(await call(client, 'capture', { runId, inputSha: sha('b'), touched: [`src/f${i}.js`] }));
      }),
    );
    for (let i = 0; i < 8; i += 1)
      expect(succeeded(await call(clients[0] as never, 'status', { runId: `run-${i}` }))).toMatchObject({
        seq: 4,
      });

    // one run, ten reproductions to record: two clients split them and race
    const [a, b] = clients as [never, never];
    const findings = Array.from({ length: 10 }, (_, i) => candidate(i));
    succeeded(await call(a, 'open', { runId: 'race', inputSha: sha('a') }));
    const round1 = { runId: 'race', round: 1, inputSha: sha('a'), completed: true, candidates: findings };
    succeeded(await call(a, 'record', { runId: 'race', report: round1 }));
    succeeded(
      await call(a, 'capture', { runId: 'race', inputSha: sha('b'), touched: findings.map((f) => f.file) }),
    );
    const answers = await Promise.all(
      findings.map((f, i) =>
        call(i % 2 === 0 ? a : b, 'reproduce', {
          runId: 'race',
          finding: findingId(f),
          stillFails: i % 3 === 0,
        }),
      ),
    );
    for (const answer of answers) expect(succeeded(answer)).toMatchObject({ alreadyRecorded: false });
    expect(succeeded(await call(b, 'status', { runId: 'race' }))).toMatchObject({ seq: 4 + findings.length });
    expect(succeeded(await call(b, 'next', { runId: 'race' }))).not.toMatchObject({
      action: 'rerun-reproductions',
    });
    // and both race to record the same report: it is recorded once, and the other call is told so
    const round2 = {
      runId: 'race',
      round: 2,
      inputSha: sha('b'),
      completed: true,
      decisions: findings.map((f, i) => ({
        id: findingId(f),
        status: i % 3 === 0 ? 'open' : 'fixed',
        evidence: 'e',
      })),
    };
    const raced = await Promise.all([a, b].map((c) => call(c, 'record', { runId: 'race', report: round2 })));
    expect(raced.map((r) => succeeded(r).alreadyRecorded).sort()).toEqual([false, true]);
    expect(succeeded(await call(b, 'status', { runId: 'race' }))).toMatchObject({
      round: 2,
      seq: 5 + findings.length,
    });

    for (const runId of ['race', ...Array.from({ length: 8 }, (_, i) => `run-${i}`)]) {
      const verified = await cli(['--dir', store, 'verify', runId, '--json']);
      expect(verified.json, runId).toMatchObject({ ok: true });
    }
  });

  it('on the PostgreSQL store, whose one connection takes one call at a time, clients racing on one run lose nothing', async () => {
    const url = await freshDatabase();
    const served = await startHttp(['--store', url]);
    const [a, b] = [await httpClient(served.url), await httpClient(served.url)];
    const findings = Array.from({ length: 10 }, (_, i) => candidate(i));
    succeeded(await call(a, 'open', { runId: 'pg', inputSha: sha('a') }));
    const round1 = { runId: 'pg', round: 1, inputSha: sha('a'), completed: true, candidates: findings };
    succeeded(await call(a, 'record', { runId: 'pg', report: round1 }));
    succeeded(await call(a, 'capture', { runId: 'pg', inputSha: sha('b') }));
    // reads, appends and opens interleaved from both clients, on the one connection the server holds
    const answers = await Promise.all(
      findings.flatMap((f, i) => [
        call(i % 2 === 0 ? a : b, 'reproduce', { runId: 'pg', finding: findingId(f), stillFails: false }),
        call(i % 2 === 0 ? b : a, 'status', { runId: 'pg' }),
        // an open refused inside its transaction (the id is taken) rolls back its own statements only
        call(i % 2 === 0 ? b : a, 'open', { runId: 'pg', inputSha: sha('a') }),
        call(i % 2 === 0 ? a : b, 'open', { runId: `pg-${i}`, inputSha: sha('a') }),
      ]),
    );
    for (const [i, answer] of answers.entries())
      if (i % 4 === 2) expect(refused(answer).code).toBe('run-exists');
      else succeeded(answer);
    for (let i = 0; i < findings.length; i += 1)
      expect(succeeded(await call(a, 'status', { runId: `pg-${i}` }))).toMatchObject({ seq: 2 });
    expect(succeeded(await call(b, 'status', { runId: 'pg' }))).toMatchObject({ seq: 4 + findings.length });
    expect((await cli(['--store', url, 'verify', 'pg', '--json'])).json).toMatchObject({ ok: true });
  });

  it('a client killed mid-call loses nothing: the call it made runs to its end, the log verifies, the server serves the next client', async () => {
    const store = await tempDir();
    const { url } = await startHttp(['--dir', store, '--lock-timeout', '60000']);
    const first = await httpClient(url);
    succeeded(await call(first, 'open', { runId: 'pr-1', inputSha: sha('a') }));
    const report = {
      runId: 'pr-1',
      round: 1,
      inputSha: sha('a'),
      completed: true,
      candidates: [candidate(1)],
    };
    // the run's lock held here: the record the killed client sends waits for it inside the server
    const lock = await acquireRunLock(runPaths(store, 'pr-1'));
    const script = `
      const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const url = ${JSON.stringify(url)};
      const init = await fetch(url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'doomed', version: '0' } } }) });
      const session = { ...h, 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-06-18' };
      await init.body.cancel();
      await (await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
      const call = await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'record', arguments: { runId: 'pr-1', report: ${JSON.stringify(report)} } } }) });
      // the answer's stream is open: the server has the call and runs it
      process.stdout.write('in flight ' + call.status + '\\n');
      setInterval(() => {}, 1000);`;
    const doomed = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [said] = (await once(doomed.stdout, 'data')) as [Buffer];
    expect(said.toString()).toBe('in flight 200\n');
    const killed = once(doomed, 'exit');
    doomed.kill('SIGKILL');
    await killed;
    const log = path.join(store, 'runs', 'pr-1.jsonl');
    const before = readFileSync(log, 'utf8');
    lock.release();

    const next = await httpClient(url);
    let status = succeeded(await call(next, 'status', { runId: 'pr-1' }));
    for (let tries = 0; status.seq === 2 && tries < 200; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = succeeded(await call(next, 'status', { runId: 'pr-1' }));
    }
    expect(status).toMatchObject({ seq: 3, round: 1, status: 'open' });
    expect(readFileSync(log, 'utf8').startsWith(before)).toBe(true);
    expect((await cli(['--dir', store, 'verify', 'pr-1', '--json'])).json).toMatchObject({ ok: true });
  });
});
