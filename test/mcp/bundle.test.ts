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

/** The chunk esbuild made from one source module: by its name's prefix and a name it exports. */
const chunkOf = async (prefix: string, exported: string): Promise<string> => {
  const says = new RegExp(`export\\{[^}]*\\b${exported}\\b`);
  const chunks = path.join(path.dirname(CLI), 'chunks');
  const named = (await readdir(chunks)).filter((f) => f.startsWith(prefix));
  const sources = await Promise.all(named.map((f) => readFile(path.join(chunks, f), 'utf8')));
  const found = named.filter((_, i) => says.test(sources[i] as string));
  expect(found, prefix).toHaveLength(1);
  return path.join(chunks, found[0] as string);
};

const holdsZod = async (...entries: ReadonlyArray<string>): Promise<string[]> =>
  [...(await loadedWith(...entries))]
    .filter(([, source]) => /\bZodError\b/.test(source))
    .map(([file]) => file);

describe('what a command loads', () => {
  it('status, findings, explain and the other read commands never load zod: folding a log needs no report schema', async () => {
    const loaded = await loadedWith(
      CLI,
      await chunkOf('program-', 'buildProgram'),
      await chunkOf('store-', 'fileStore'),
      await chunkOf('read-commands-', 'registerStatus'),
    );
    expect(loaded.size).toBeGreaterThan(4);
    for (const [file, source] of loaded) expect(/\bZodError\b/.test(source), file).toBe(false);
  });

  it('capture, verify, export and the other write commands that parse no report or policy never load zod', async () => {
    const start = [CLI, await chunkOf('program-', 'buildProgram'), await chunkOf('store-', 'fileStore')];
    for (const [prefix, register] of [
      ['capture-', 'registerCapture'],
      ['verify-', 'registerVerify'],
      ['transfer-', 'registerExport'],
      ['extend-', 'registerExtend'],
      ['rule-', 'registerRule'],
      ['stage-', 'registerStage'],
      // --check alone; --from loads the parser of gh's JSON on demand
      ['checks-', 'registerChecks'],
    ] as const)
      expect(await holdsZod(...start, await chunkOf(prefix, register)), prefix).toEqual([]);
    // and the check can fail: the command that parses reports does load zod
    expect(await holdsZod(...start, await chunkOf('record-', 'registerRecord'))).not.toEqual([]);
  });
});
