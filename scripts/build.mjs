// `npm run build`: the two libraries (`tsc -b`: the fold into packages/fold/lib/, clearance into lib/) and the CLI bundle (scripts/bundle-cli.mjs into
// dist/). With `--if-stale` (what `npm test`, `test:browser` and `bench` run first) it skips both
// when the last build here was made from exactly the same inputs and its outputs are all still
// there: `npm install` has just built, and a test run after an edit to a test needs no new build.
//
// "The same inputs" is a SHA-256 over the content of every file a build reads from this
// repository (src/, the tsconfig files, this script and the bundler's, package.json and the lock
// file, which pins the compiler and the dependencies), so a checkout that only touches times builds
// nothing and any edit builds everything. "Still there" is every output file the build wrote, by
// path and size. The record lives in node_modules/.cache, beside the dependencies it assumes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RECORD = path.join(root, 'node_modules', '.cache', 'clearance-build.json');
const INPUTS = [
  'src',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'scripts/bundle-cli.mjs',
  'scripts/compile-report-parser.mjs',
  'package.json',
  'package-lock.json',
  'packages/fold/package.json',
  'packages/fold/tsconfig.json',
];
const OUTPUTS = ['packages/fold/lib', 'lib', 'dist'];

/** Every file under `rel` (a file or a directory), sorted, as paths relative to the root. */
const filesUnder = (rel) => {
  const at = path.join(root, rel);
  let entries;
  try {
    if (!statSync(at).isDirectory()) return [rel];
    entries = readdirSync(at, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
};

const inputKey = () => {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
};

const outputsNow = () =>
  Object.fromEntries(OUTPUTS.flatMap(filesUnder).map((file) => [file, statSync(path.join(root, file)).size]));

const upToDate = (key) => {
  let record;
  try {
    record = JSON.parse(readFileSync(RECORD, 'utf8'));
  } catch {
    return false;
  }
  if (record?.key !== key || typeof record.outputs !== 'object' || record.outputs === null) return false;
  const listed = Object.entries(record.outputs);
  if (listed.length === 0) return false;
  for (const [file, size] of listed) {
    try {
      if (statSync(path.join(root, file)).size !== size) return false;
    } catch {
      return false;
    }
  }
  return true;
};

const key = inputKey();
if (process.argv.includes('--if-stale') && upToDate(key)) process.exit(0);

// the compiler the lock file pins, by its package's own `bin`, run with this Node
const typescript = createRequire(path.join(root, 'package.json')).resolve('typescript/package.json');
const tsc = path.join(path.dirname(typescript), JSON.parse(readFileSync(typescript, 'utf8')).bin.tsc);
// each lib/ from nothing: a module renamed or removed in src/ must not linger there, in a package
const foldLib = path.join(root, 'packages', 'fold', 'lib');
for (const lib of [foldLib, path.join(root, 'lib')]) rmSync(lib, { recursive: true, force: true });
// the fold (packages/fold, the pure part of src/) first, then clearance over it: its references
execFileSync(process.execPath, [tsc, '-b', '--force', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
// the round report's parser as zod's compiler makes it, in place of the unbuilt one
const { compiledReportModule } = await import('./compile-report-parser.mjs');
writeFileSync(path.join(foldLib, 'events', 'compiled-report.js'), await compiledReportModule(foldLib));
execFileSync(process.execPath, [path.join(root, 'scripts/bundle-cli.mjs')], { cwd: root, stdio: 'inherit' });

// written beside and renamed into place: a build stopped half-way leaves the old record or none
try {
  mkdirSync(path.dirname(RECORD), { recursive: true });
  const making = `${RECORD}.${process.pid}.tmp`;
  writeFileSync(making, `${JSON.stringify({ key, outputs: outputsNow() })}\n`);
  renameSync(making, RECORD);
} catch {
  // no record (a read-only node_modules): the next --if-stale build builds again
}
