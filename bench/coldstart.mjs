// Cold start of the CLI against `node -e 0` on the same Node: `--version`, `status <run>` and
// `record` of a round-1 report (into a fresh copy of an opened run each time). Interleaved: every
// trial runs each command once, in turn, so a busy machine slows all sides alike. Figures are
// medians per repeat; the ranges are across repeats. The same commands also run with the CLI's code
// cache turned off (NODE_DISABLE_COMPILE_CACHE=1), so its share is measured rather than assumed.
//
// Each run is timed by bash around the child alone ($EPOCHREALTIME), which also reports the child's
// CPU time (user + system, `times`): on a machine shared with other work the wall-clock ratio swings
// with the load, the CPU-time ratio far less, so both are printed. A target is judged on the worst
// repeat's wall-clock ratio, and on CPU time too, and a miss is printed with its figure.
//
// The Node that runs the commands: `--node <path>` here, or CLEARANCE_BENCH_NODE for
// `npm run bench -- cold`; this process's own Node otherwise.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** What each command must stay within, as a multiple of `node -e 0` (issue 22). */
export const TARGETS = { '--version': 1.5, status: 1.5, record: 2 };

/** `cli`: another build to measure the same way (e.g. a previous commit's bundle); `node`: the Node to run. */
export const coldStartBench = ({
  repeats = 5,
  runs = 20,
  cli: CLI = DIST_CLI,
  node: NODE = process.env.CLEARANCE_BENCH_NODE || process.execPath,
} = {}) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'clearance-cold-'));
  try {
    const cacheHome = path.join(root, 'cache'); // the compile cache lives here, not in the user's home
    const withCache = { ...process.env, XDG_CACHE_HOME: cacheHome };
    const withoutCache = { ...withCache, NODE_DISABLE_COMPILE_CACHE: '1' };
    const cli = (args, env = withCache) => execFileSync(NODE, [CLI, ...args], { env, stdio: 'ignore' });

    const recorded = path.join(root, 'recorded'); // a run with round 1 recorded: what `status` reads
    const opened = path.join(root, 'opened'); // an opened run: what each `record` gets a copy of
    const report = path.join(root, 'round-1.json');
    writeFileSync(report, JSON.stringify(round1('cold')));
    for (const dir of [recorded, opened]) cli(['--dir', dir, 'open', 'cold', '--input-sha', sha('a')]);
    cli(['--dir', recorded, 'record', 'cold', '--report', report]);

    let copies = 0;
    const time = (args, env, before) => measure([NODE, ...(before?.() ?? args)], env);
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
      node: execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim(),
      anchor: { wall: range(node.wall), cpu: range(node.cpu) },
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

/** The commands that missed their target, each with its figure: what the bench says plainly. */
export const coldStartMisses = (r) =>
  r.commands
    .filter((c) => TARGETS[c.name] !== undefined)
    .flatMap((c) => {
      const target = TARGETS[c.name];
      return [
        ...(c.wall.ratio.max > target ? [`${c.name} wall ${c.wall.ratio.max.toFixed(2)}× > ${target}×`] : []),
        ...(c.cpu.ratio.max > target ? [`${c.name} cpu ${c.cpu.ratio.max.toFixed(2)}× > ${target}×`] : []),
      ];
    });

export const printColdStartBench = (r) => {
  const ms = ({ min, max }) => `${min.toFixed(1)}–${max.toFixed(1)} ms`;
  const ratio = ({ min, max }) => `${min.toFixed(2)}–${max.toFixed(2)}×`;
  console.log(
    `cold      start-up vs node -e 0 on Node ${r.node}, medians of ${r.runs} interleaved runs over ${r.repeats} repeats; the CLI's code cache on, and off (NODE_DISABLE_COMPILE_CACHE=1)`,
  );
  console.log(
    `          ${'node -e 0'.padEnd(20)} wall ${ms(r.anchor.wall).padStart(17)}${' '.repeat(15)}cpu ${ms(r.anchor.cpu).padStart(17)}`,
  );
  for (const c of r.commands) {
    const target = TARGETS[c.name];
    const met =
      target === undefined
        ? ''
        : c.wall.ratio.max <= target && c.cpu.ratio.max <= target
          ? `  (target ≤ ${target}×) met`
          : `  (target ≤ ${target}×) MISSED`;
    console.log(
      `          ${c.name.padEnd(20)} wall ${ms(c.wall).padStart(17)} ${ratio(c.wall.ratio).padStart(12)}   cpu ${ms(c.cpu).padStart(17)} ${ratio(c.cpu.ratio).padStart(12)}${met}`,
    );
  }
  const misses = coldStartMisses(r);
  console.log(
    misses.length === 0
      ? '          every cold-start target met'
      : `          targets missed on Node ${r.node}: ${misses.join('; ')}`,
  );
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // node bench/coldstart.mjs [repeats] [runs] [path/to/cli.js] [--node path/to/node]
  const args = process.argv.slice(2);
  const at = args.indexOf('--node');
  const node = at === -1 ? undefined : args.splice(at, 2)[1];
  const [repeats, runs, cli] = args;
  printColdStartBench(
    coldStartBench({
      repeats: Number(repeats) || 5,
      runs: Number(runs) || 20,
      cli: cli && path.resolve(cli),
      ...(node === undefined ? {} : { node: path.resolve(node) }),
    }),
  );
}
