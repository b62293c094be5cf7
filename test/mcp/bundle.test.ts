import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedWith } from '../support/bundle-graph.js';
import { CLI } from '../support/cli.js';

// The MCP SDK is loaded by `clearance mcp` alone: every other command's start-up reads dist/cli.js
// and the chunks it imports statically, none of which may hold the SDK.

const loadedAtStartUp = (entry: string) => loadedWith(entry);

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

describe('what a read command loads', () => {
  it('status, findings, explain and the other read commands never load zod: folding a log needs no report schema', async () => {
    const chunks = path.join(path.dirname(CLI), 'chunks');
    const files = await readdir(chunks);
    const named = (prefix: string) => {
      const found = files.filter((f) => f.startsWith(prefix));
      expect(found, prefix).toHaveLength(1);
      return path.join(chunks, found[0] as string);
    };
    const loaded = await loadedWith(CLI, named('program-'), named('store-'), named('read-commands-'));
    expect(loaded.size).toBeGreaterThan(4);
    for (const [file, source] of loaded) expect(/\bZodError\b/.test(source), file).toBe(false);
    // and the check can fail: the chunk that parses reports does hold zod
    const sources = await Promise.all(files.map((f) => readFile(path.join(chunks, f), 'utf8')));
    expect(sources.some((source) => /\bZodError\b/.test(source))).toBe(true);
  });
});
