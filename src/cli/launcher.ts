import path from 'node:path';
import { chunkLoader, codeCacheDir } from './code-cache.js';
import { deferringRequire } from './lazy-builtins.js';

// dist/cli.js, the executable `bin` names: a CommonJS script (dist/package.json says so) that
// loads the program's chunks through V8's code cache (code-cache.ts) and starts it. The bundler
// fixes which build this is and which chunk is the program's entry (src/main.ts); nothing here
// may import the program itself.
declare const CLEARANCE_BUILD: Readonly<{ id: string; main: string }>;

const loader = chunkLoader(codeCacheDir(process.env, CLEARANCE_BUILD.id), deferringRequire(require));
// on every way out, process.exit() included: the first run of a build pays for its cache once
process.once('exit', loader.save);
(loader.load(path.join(__dirname, CLEARANCE_BUILD.main)).start as () => void)();
