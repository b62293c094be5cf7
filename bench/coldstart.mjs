// Cold start of the CLI against `node -e 0`: `--version`, `status <run>` and `record` of a round-1
// report (into a fresh copy of an opened run each time). Interleaved: every trial runs each command
// once, in turn, so a busy machine slows all sides alike. Figures are medians per repeat; the
// ranges are across repeats. Where Node offers a compile cache (>= 22.1), the same commands also
// run with it turned off, so its share is measured rather than assumed.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
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
    const time = (args, env, before) => {
      const argv = before?.() ?? args;
      const t = performance.now();
      execFileSync(process.execPath, argv, { env, stdio: 'ignore' });
      return performance.now() - t;
    };
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
    const medians = sides.map(() => []);
    for (let r = 0; r < repeats; r += 1) {
      const samples = sides.map(() => []);
      for (let i = 0; i < runs; i += 1)
        for (const [s, side] of sides.entries()) samples[s].push(time(side.args, side.env, side.before));
      for (const [s, xs] of samples.entries()) medians[s].push(median(xs));
    }
    const node = medians[0];
    return {
      repeats,
      runs,
      compileCache: hasCompileCache,
      node: { min: Math.min(...node), max: Math.max(...node) },
      commands: sides.slice(1).map((side, k) => {
        const ms = medians[k + 1];
        const ratios = ms.map((m, r) => m / node[r]);
        return {
          name: side.name,
          min: Math.min(...ms),
          max: Math.max(...ms),
          ratioMin: Math.min(...ratios),
          ratioMax: Math.max(...ratios),
        };
      }),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

export const printColdStartBench = (r, target = 1.8) => {
  const ms = (a, b) => `${a.toFixed(1)}–${b.toFixed(1)} ms`;
  console.log(
    `cold      start-up vs node -e 0 (${ms(r.node.min, r.node.max)}), medians of ${r.runs} over ${r.repeats} repeats, interleaved; compile cache: ${r.compileCache ? 'on (Node >= 22.1)' : 'none on this Node'}`,
  );
  for (const c of r.commands) {
    const met = c.name.includes('no cache') ? '' : c.ratioMax <= target ? ' met' : ' MISSED';
    console.log(
      `          ${c.name.padEnd(22)} ${ms(c.min, c.max).padStart(18)}  ratio ${c.ratioMin.toFixed(2)}–${c.ratioMax.toFixed(2)}× (target ≤ ${target}×)${met}`,
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
