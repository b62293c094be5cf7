import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The chunks `source` requires, each as loaded at once (a static import, converted by
 * scripts/bundle-cli.mjs to `import_x=require("./x.js")`, or a bare `require("./x.js");`) or only
 * when it runs (a dynamic import, `Promise.resolve().then(()=>__toESM(require("./x.js")))`). A
 * require() of a chunk in any other form is an error: the test would no longer know what it reads.
 */
export const chunkRequires = (source: string): { now: string[]; later: string[] } => {
  const now: string[] = [];
  const later: string[] = [];
  for (const m of source.matchAll(/require\("(\.[^"]+)"\)/g)) {
    const before = source.slice(Math.max(0, (m.index ?? 0) - 40), m.index);
    const spec = m[1] as string;
    if (/\.then\(\(\)=>(?:__toESM\()?$/.test(before)) later.push(spec);
    else if (/(?:\bimport_\w+=|(?:^|[;{}]))$/.test(before)) now.push(spec);
    else throw new Error(`a require() of ${spec} in an unknown form: …${before}`);
  }
  return { now, later };
};

/**
 * The files of the built CLI that loading `entries` loads at once: each entry and everything it
 * requires statically, transitively; a dynamic import is left out (it loads only when it runs).
 */
export const loadedWith = async (...entries: ReadonlyArray<string>): Promise<Map<string, string>> => {
  const loaded = new Map<string, string>();
  const visit = async (file: string): Promise<void> => {
    if (loaded.has(file)) return;
    const source = await readFile(file, 'utf8');
    loaded.set(file, source);
    for (const spec of chunkRequires(source).now) await visit(path.resolve(path.dirname(file), spec));
  };
  for (const entry of entries) await visit(entry);
  return loaded;
};
