import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';

// The MCP SDK is loaded by `clearance mcp` alone: every other command's start-up reads dist/cli.js
// and the chunks it imports statically, none of which may hold the SDK.

/** Static imports, at a line's start or after a `;` (the bundle is minified: several to a line). */
const staticImports = (source: string): string[] =>
  [
    ...source.matchAll(
      /(?:^|;)\s*(?:import|export)\b[^;"]*?from\s*"(\.[^"]+)"|(?:^|;)\s*import\s*"(\.[^"]+)"/gm,
    ),
  ].map((m) => (m[1] ?? m[2]) as string);

const loadedAtStartUp = async (entry: string): Promise<Map<string, string>> => {
  const loaded = new Map<string, string>();
  const visit = async (file: string): Promise<void> => {
    if (loaded.has(file)) return;
    const source = await readFile(file, 'utf8');
    loaded.set(file, source);
    for (const spec of staticImports(source)) await visit(path.resolve(path.dirname(file), spec));
  };
  await visit(entry);
  return loaded;
};

describe('the bundled CLI', () => {
  it('loads the MCP SDK only through the mcp command', async () => {
    const startUp = await loadedAtStartUp(CLI);
    expect(startUp.size).toBeGreaterThan(1);
    for (const [file, source] of startUp) expect(/\bMcpServer\b/.test(source), file).toBe(false);
    const cli = startUp.get(CLI) ?? '';
    expect(cli).toMatch(/import\s*"\.\/chunks\//);
    const chunks = await import('node:fs/promises').then((fs) =>
      fs.readdir(path.join(path.dirname(CLI), 'chunks')),
    );
    const server = chunks.filter((c) => c.startsWith('server-'));
    expect(server).toHaveLength(1);
    const source = await readFile(path.join(path.dirname(CLI), 'chunks', server[0] as string), 'utf8');
    expect(source).toMatch(/\bMcpServer\b/);
  });
});
