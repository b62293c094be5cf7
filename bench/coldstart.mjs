// Cold start of the CLI against `node -e 0`: `--version`, `status <run>` and `record` of a round-1
// report (into a fresh copy of an opened run each time). Interleaved: every trial runs each command
// once, in turn, so a busy machine slows all sides alike. Figures are medians per repeat; the
// ranges are across repeats. Where Node offers a compile cache (>= 22.1), the same commands also
// run with it turned off, so its share is measured rather than assumed.
//
// Each run is timed by bash around the child alone ($EPOCHREALTIME), which also reports the child's
// CPU time (user + system, `times`): on a machine shared with other work the wall-clock ratio swings
// with the load, the CPU-time ratio far less, so both are printed.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const TIMED = 't0=$EPOCHREALTIME; "$@" >/dev/null 2>&1 || exit 99; t1=$EPOCHREALTIME; echo "$t0 $t1"; times';
// bash by its path: a `bash` earlier on PATH may be a wrapper (a version-manager shim) whose own
// children would be counted in `times`
const BASH = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'].find((p) => existsSync(p)) ?? 'bash';
const seconds = (s) => {
  const [, m, sec] = /^(\d+)m([\d.]+)s$/.exec(s) ?? [];
  return Number(m) * 60 + Number(sec);
};

/** Wall-clock and CPU milliseconds of one run of `argv`; a failing run stops the bench. */
const measure = (argv, env) => {
  const out = execFileSync(BASH, ['-c', TIMED, 'bash', ...argv], { env, encoding: 'utf8' });
  const [span, , children] = out.trim().split('\n');
  const [t0, t1] = span.split(' ').map(Number);
  const [user, system] = children.split(' ').map(seconds);
  return { wall: (t1 - t0) * 1000, cpu: (user + system) * 1000 };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sha = (label) => label.padEnd(40, '0');

const round1 = (runId) => ({
  runId,
  round: 1,
  inputSha: sha('a'),
  completed: true,
  candidates: [
    {
      file: 'src/service.js',
      line: 10,
      category: 'correctness',
      summary: 'Missing close',
      severity: 'major',
      confirmed: true,
      evidence: 'the handle leaks when the request is aborted',
    },
  ],
  decisions: [],
});

export const hasCompileCache = typeof module.enableCompileCache === 'function';

/** `cli`: another build to measure the same way (e.g. a previous commit's bundle). */
export const coldStartBench = ({ repeats = 5, runs = 20, cli: CLI = DIST_CLI } = {}) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'clearance-cold-'));
  try {
    const cacheHome = path.join(root, 'cache'); // the compile cache lives here, not in the user's home
    const withCache = { ...process.env, XDG_CACHE_HOME: cacheHome };
    const withoutCache = { ...withCache, NODE_DISABLE_COMPILE_CACHE: '1' };
    const cli = (args, env = withCache) =>
      execFileSync(process.execPath, [CLI, ...args], { env, stdio: 'ignore' });

    const recorded = path.join(root, 'recorded'); // a run with round 1 recorded: what `status` reads
    const opened = path.join(root, 'opened'); // an opened run: what each `record` gets a copy of
    const report = path.join(root, 'round-1.json');
    writeFileSync(report, JSON.stringify(round1('cold')));
    for (const dir of [recorded, opened]) cli(['--dir', dir, 'open', 'cold', '--input-sha', sha('a')]);
    cli(['--dir', recorded, 'record', 'cold', '--report', report]);

    let copies = 0;
    const time = (args, env, before) => measure([process.execPath, ...(before?.() ?? args)], env);
    const freshCopy = () => {
      copies += 1;
      const dir = path.join(root, `record-${copies}`);
      cpSync(opened, dir, { recursive: true });
      return [CLI, '--dir', dir, 'record', 'cold', '--report', report];
    };
    const sides = [
      { name: 'node -e 0', args: ['-e', '0'], env: withCache },
      { name: '--version', args: [CLI, '--version'], env: withCache },
      { name: 'status', args: [CLI, '--dir', recorded, 'status', 'cold'], env: withCache },
      { name: 'record', args: null, before: freshCopy, env: withCache },
    ];
    if (hasCompileCache)
      for (const side of sides.slice(1))
        sides.push({ ...side, name: `${side.name} (no cache)`, env: withoutCache });

    for (const side of sides) time(side.args, side.env, side.before); // warm the disk and the compile cache
    const medians = sides.map(() => ({ wall: [], cpu: [] }));
    for (let r = 0; r < repeats; r += 1) {
      const samples = sides.map(() => []);
      for (let i = 0; i < runs; i += 1)
        for (const [s, side] of sides.entries()) samples[s].push(time(side.args, side.env, side.before));
      for (const [s, xs] of samples.entries()) {
        medians[s].wall.push(median(xs.map((x) => x.wall)));
        medians[s].cpu.push(median(xs.map((x) => x.cpu)));
      }
    }
    const range = (xs) => ({ min: Math.min(...xs), max: Math.max(...xs) });
    const node = medians[0];
    const versus = (ms, anchor) => ({ ...range(ms), ratio: range(ms.map((m, r) => m / anchor[r])) });
    return {
      repeats,
      runs,
      compileCache: hasCompileCache,
      node: { wall: range(node.wall), cpu: range(node.cpu) },
      commands: sides.slice(1).map((side, k) => ({
        name: side.name,
        wall: versus(medians[k + 1].wall, node.wall),
        cpu: versus(medians[k + 1].cpu, node.cpu),
      })),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

export const printColdStartBench = (r, target = 1.8) => {
  const ms = ({ min, max }) => `${min.toFixed(1)}–${max.toFixed(1)} ms`;
  const ratio = ({ min, max }) => `${min.toFixed(2)}–${max.toFixed(2)}×`;
  console.log(
    `cold      start-up vs node -e 0, medians of ${r.runs} interleaved runs over ${r.repeats} repeats; compile cache: ${r.compileCache ? 'on (Node >= 22.1)' : 'none on this Node'}`,
  );
  console.log(
    `          ${'node -e 0'.padEnd(20)} wall ${ms(r.node.wall).padStart(17)}${' '.repeat(19)}cpu ${ms(r.node.cpu)}`,
  );
  for (const c of r.commands) {
    const met = c.name.includes('no cache') ? '' : c.wall.ratio.max <= target ? '  met' : '  MISSED (wall)';
    console.log(
      `          ${c.name.padEnd(20)} wall ${ms(c.wall).padStart(17)} ${ratio(c.wall.ratio).padStart(12)}   cpu ${ms(c.cpu).padStart(17)} ${ratio(c.cpu.ratio).padStart(12)}  (target ≤ ${target}×)${met}`,
    );
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // node bench/coldstart.mjs [repeats] [runs] [path/to/cli.js]
  const [repeats, runs, cli] = process.argv.slice(2);
  printColdStartBench(
    coldStartBench({
      repeats: Number(repeats) || 5,
      runs: Number(runs) || 20,
      cli: cli && path.resolve(cli),
    }),
  );
}
