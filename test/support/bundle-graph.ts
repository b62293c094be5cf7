import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Static imports, at a line's start or after a `;` (the bundle is minified: several to a line). */
const staticImports = (source: string): string[] =>
  [
    ...source.matchAll(
      /(?:^|;)\s*(?:import|export)\b[^;"]*?from\s*"(\.[^"]+)"|(?:^|;)\s*import\s*"(\.[^"]+)"/gm,
    ),
  ].map((m) => (m[1] ?? m[2]) as string);

/**
 * The files of the built CLI that loading `entries` loads at once: each entry and everything it
 * imports statically, transitively; a dynamic `import()` is left out (it loads only when it runs).
 */
export const loadedWith = async (...entries: ReadonlyArray<string>): Promise<Map<string, string>> => {
  const loaded = new Map<string, string>();
  const visit = async (file: string): Promise<void> => {
    if (loaded.has(file)) return;
    const source = await readFile(file, 'utf8');
    loaded.set(file, source);
    for (const spec of staticImports(source)) await visit(path.resolve(path.dirname(file), spec));
  };
  for (const entry of entries) await visit(entry);
  return loaded;
};
