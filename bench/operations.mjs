// The operations layer's cost. Two figures, each against its anchor in one run:
//
// 1. `clearance record` of a round-1 report through the operations layer, a fresh process each
//    time, against the same command of the bundle before the layer existed (CLEARANCE_BENCH_BEFORE
//    names that bundle's dist/cli.js), and against `node -e 0`: interleaved, one of each in turn,
//    so a busy machine slows every side alike; medians per repeat, ranges across repeats. Each run
//    is timed by bash around the child alone, with its CPU time (`times`).
// 2. An MCP tool call that reads a run's status, through the SDK's own client and server in this
//    process (an in-memory transport: the server's JSON-RPC, the input and output validation, the
//    answer's JSON), against the same operation called directly (the read and the fold): the
//    difference is what the door costs. CPU time of this process, per call, interleaved in batches.
// 3. The same `status` call over Streamable HTTP: the SDK's client and `clearance mcp --http`'s
//    server (listenHttp) in this process, on loopback TCP, against the same operation called
//    directly. Wall time and CPU time (client and server both) per call, interleaved.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { operations } from '../lib/index.js';
import { listenHttp } from '../lib/mcp/http.js';
import { createServer } from '../lib/mcp/server.js';
import { fileStore } from '../lib/store/store.js';

const DIST_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const TIMED = 't0=$EPOCHREALTIME; "$@" >/dev/null 2>&1 || exit 99; t1=$EPOCHREALTIME; echo "$t0 $t1"; times';
const BASH = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? 'bash';
const seconds = (s) => {
  const [, m, sec] = /^(\d+)m([\d.]+)s$/.exec(s) ?? [];
  return Number(m) * 60 + Number(sec);
};
const measure = (argv) => {
  const out = execFileSync(BASH, ['-c', TIMED, 'bash', ...argv], { encoding: 'utf8' });
  const [span, , children] = out.trim().split('\n');
  const [t0, t1] = span.split(' ').map(Number);
  const [user, system] = children.split(' ').map(seconds);
  return { wall: (t1 - t0) * 1000, cpu: (user + system) * 1000 };
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => ({ min: Math.min(...xs), max: Math.max(...xs) });
const sha = (label) => label.padEnd(40, '0');

const CANDIDATE = {
  file: 'src/service.js',
  line: 10,
  category: 'correctness',
  summary: 'Missing close',
  severity: 'major',
  confirmed: true,
  evidence: 'the handle leaks when the request is aborted',
};

/** `record` of round 1 into a fresh copy of an opened run: after, before (if given), and `node -e 0`. */
export const recordPathBench = ({
  repeats = 5,
  runs = 15,
  before = process.env.CLEARANCE_BENCH_BEFORE,
} = {}) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'clearance-ops-'));
  try {
    const report = path.join(root, 'round-1.json');
    writeFileSync(
      report,
      JSON.stringify({
        runId: 'ops',
        round: 1,
        inputSha: sha('a'),
        completed: true,
        candidates: [CANDIDATE],
      }),
    );
    // each build records into a run it opened itself: a log holds the event versions of the build
    // that wrote it, which an older build may not read
    const openedBy = (cli) => {
      const opened = path.join(root, `opened-${path.basename(path.dirname(path.dirname(cli)))}`);
      execFileSync(process.execPath, [cli, '--dir', opened, 'open', 'ops', '--input-sha', sha('a')], {
        stdio: 'ignore',
      });
      return opened;
    };
    let copies = 0;
    const recordWith = (cli) => {
      const opened = openedBy(cli);
      return () => {
        copies += 1;
        const dir = path.join(root, `copy-${copies}`);
        cpSync(opened, dir, { recursive: true });
        return [process.execPath, cli, '--dir', dir, 'record', 'ops', '--report', report];
      };
    };
    const sides = [
      { name: 'node -e 0', argv: () => [process.execPath, '-e', '0'] },
      { name: 'record (operations)', argv: recordWith(DIST_CLI) },
      ...(before === undefined ? [] : [{ name: 'record (before)', argv: recordWith(path.resolve(before)) }]),
    ];
    for (const side of sides) measure(side.argv());
    const medians = sides.map(() => ({ wall: [], cpu: [] }));
    for (let r = 0; r < repeats; r += 1) {
      const samples = sides.map(() => []);
      for (let i = 0; i < runs; i += 1)
        for (const [s, side] of sides.entries()) samples[s].push(measure(side.argv()));
      for (const [s, xs] of samples.entries()) {
        medians[s].wall.push(median(xs.map((x) => x.wall)));
        medians[s].cpu.push(median(xs.map((x) => x.cpu)));
      }
    }
    const after = medians[1];
    return {
      repeats,
      runs,
      sides: sides.map((side, s) => ({
        name: side.name,
        wall: range(medians[s].wall),
        cpu: range(medians[s].cpu),
        // per repeat: this side's median over the operations side's (1 = the same cost)
        versusAfter: {
          wall: range(medians[s].wall.map((m, r) => m / after.wall[r])),
          cpu: range(medians[s].cpu.map((m, r) => m / after.cpu[r])),
        },
      })),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

/** A run of `rounds` rounds in a fresh file store: the context, and its directory. */
const runOf = async (rounds) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clearance-mcp-bench-'));
  const context = { store: fileStore(dir), by: 'bench' };
  await operations.open(context, { runId: 'mcp', inputSha: sha('r1') });
  for (let round = 1; round <= rounds; round += 1) {
    const candidates = [{ ...CANDIDATE, file: `src/f${round}.js` }];
    await operations.record(context, {
      runId: 'mcp',
      source: {
        kind: 'report',
        report: {
          runId: 'mcp',
          round,
          inputSha: sha(`r${round}`),
          completed: true,
          candidates,
          decisions: [],
        },
      },
    });
    if (round < rounds) await operations.capture(context, { runId: 'mcp', inputSha: sha(`r${round + 1}`) });
  }
  return { dir, context };
};

/** Wall µs and CPU µs of `call`, once, in this process. */
const costOf = async (call) => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await call();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - start) * 1000, cpu: used.user + used.system };
};

/**
 * `direct` and `tool` in turn, `calls` times a repeat after a warm-up: the median wall and CPU µs
 * of each, per repeat.
 */
const interleaved = async (direct, tool, { repeats, calls }) => {
  for (let i = 0; i < 50; i += 1) {
    await direct();
    await tool();
  }
  const perRepeat = [];
  for (let r = 0; r < repeats; r += 1) {
    const d = [];
    const t = [];
    for (let i = 0; i < calls; i += 1) {
      d.push(await costOf(direct));
      t.push(await costOf(tool));
    }
    const m = (xs, k) => median(xs.map((x) => x[k]));
    perRepeat.push({
      direct: { wall: m(d, 'wall'), cpu: m(d, 'cpu') },
      tool: { wall: m(t, 'wall'), cpu: m(t, 'cpu') },
    });
  }
  return perRepeat;
};

/** A status call through `client` against the operation called directly, on a run of `rounds` rounds. */
const statusCalls = async (context, client, options) =>
  interleaved(
    () => operations.status(context, { runId: 'mcp' }),
    () => client.callTool({ name: 'status', arguments: { runId: 'mcp' } }),
    options,
  );

/**
 * The same status call over Streamable HTTP (the SDK's client and `clearance mcp --http`'s server,
 * both in this process, on loopback) against the operation called directly: per call, interleaved.
 */
export const mcpHttpStatusBench = async ({ repeats = 5, calls = 300, rounds = 3 } = {}) => {
  const { dir, context } = await runOf(rounds);
  const listening = await listenHttp({ context, dir }, { host: '127.0.0.1', port: 0 });
  try {
    const client = new Client({ name: 'bench', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    const perRepeat = await statusCalls(context, client, { repeats, calls });
    await client.close();
    const of = (f) => range(perRepeat.map(f));
    return {
      repeats,
      calls,
      rounds,
      direct: { wall: of((p) => p.direct.wall), cpu: of((p) => p.direct.cpu) },
      tool: { wall: of((p) => p.tool.wall), cpu: of((p) => p.tool.cpu) },
      beyond: { wall: of((p) => p.tool.wall - p.direct.wall), cpu: of((p) => p.tool.cpu - p.direct.cpu) },
    };
  } finally {
    await listening.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

/** An MCP `status` call against the same operation called directly, on a run of `rounds` rounds. */
export const mcpStatusBench = async ({ repeats = 5, calls = 400, rounds = 3 } = {}) => {
  const { dir, context } = await runOf(rounds);
  try {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createServer({ context, dir });
    await server.connect(serverSide);
    const client = new Client({ name: 'bench', version: '0.0.0' });
    await client.connect(clientSide);
    const perRepeat = await statusCalls(context, client, { repeats, calls });
    await client.close();
    return {
      repeats,
      calls,
      rounds,
      directUs: range(perRepeat.map((p) => p.direct.cpu)),
      toolUs: range(perRepeat.map((p) => p.tool.cpu)),
      beyondUs: range(perRepeat.map((p) => p.tool.cpu - p.direct.cpu)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const printOperationsBench = (record, mcp, http) => {
  const ms = ({ min, max }) => `${min.toFixed(1)}–${max.toFixed(1)} ms`;
  const x = ({ min, max }) => `${min.toFixed(2)}–${max.toFixed(2)}×`;
  console.log(
    `ops       record of a round-1 report, a fresh process each (medians of ${record.runs} interleaved runs over ${record.repeats} repeats)`,
  );
  for (const s of record.sides)
    console.log(
      `          ${s.name.padEnd(20)} wall ${ms(s.wall).padStart(17)} cpu ${ms(s.cpu).padStart(17)}   vs operations: wall ${x(s.versusAfter.wall)}, cpu ${x(s.versusAfter.cpu)}`,
    );
  if (!record.sides.some((s) => s.name === 'record (before)'))
    console.log('          (set CLEARANCE_BENCH_BEFORE=<an older build>/dist/cli.js to compare with it)');
  const us = ({ min, max }) => `${min.toFixed(0)}–${max.toFixed(0)} µs`;
  console.log(
    `          MCP status call of a ${mcp.rounds}-round run, CPU per call (medians of ${mcp.calls} interleaved calls over ${mcp.repeats} repeats):`,
  );
  console.log(
    `          the operation alone (read + fold + view) ${us(mcp.directUs)}; through the SDK's client and server ${us(mcp.toolUs)}; beyond the fold ${us(mcp.beyondUs)} (target: well under 1,000 µs)`,
  );
  if (http === undefined) return;
  console.log(
    `          the same call over Streamable HTTP on loopback (clearance mcp --http's server, the SDK's client, one process), per call (medians of ${http.calls} interleaved calls over ${http.repeats} repeats):`,
  );
  console.log(
    `          the operation alone: wall ${us(http.direct.wall)}, cpu ${us(http.direct.cpu)}; over HTTP: wall ${us(http.tool.wall)}, cpu ${us(http.tool.cpu)}; beyond the operation: wall ${us(http.beyond.wall)}, cpu ${us(http.beyond.cpu)}`,
  );
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printOperationsBench(recordPathBench(), await mcpStatusBench(), await mcpHttpStatusBench());
}
