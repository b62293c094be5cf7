import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { ENVIRONMENT } from '../../src/cli/help-topics/environment.js';
import { OPERATIONAL_CODES } from '../../src/errors.js';
import { REJECTION_CODES } from '../../src/events/rejection.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../../src/store/lock.js';
import { cli } from '../support/cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith('.ts') ? [full] : [];
  });

/** Every variable the code reads by name: `env.NAME`, `env['NAME']` (an assignment sets git's, not ours). */
const variablesRead = (dirs: ReadonlyArray<string>): Set<string> =>
  new Set(
    dirs.flatMap((dir) =>
      filesUnder(path.join(ROOT, dir)).flatMap((file) =>
        [
          ...readFileSync(file, 'utf8').matchAll(
            /\benv(?:\.([A-Z][A-Z0-9_]*)\b|\[['"]([A-Z][A-Z0-9_]*)['"]\])(?!\s*=[^=])/g,
          ),
        ].map((m) => (m[1] ?? m[2]) as string),
      ),
    ),
  );

describe('clearance help TOPIC', () => {
  it('exit-codes prints every exit status the code uses, from its one table', async () => {
    const human = await cli(['help', 'exit-codes']);
    expect(human.code).toBe(0);
    for (const status of Object.values(EXIT))
      expect(human.stdout).toMatch(new RegExp(`^ *${status}  \\S`, 'm'));
    const json = await cli(['help', 'exit-codes', '--json']);
    expect(json.json).toMatchObject({ ok: true, topic: 'exit-codes' });
    expect(
      (json.json.exitCodes as Array<{ status: number }>).map((e) => e.status).sort((a, b) => a - b),
    ).toEqual(Object.values(EXIT).sort((a, b) => a - b));
  });

  it('exit-codes lists every status an error code maps to (69 and 78 were missing)', async () => {
    const human = (await cli(['help', 'exit-codes'])).stdout;
    const mapped = new Set([...OPERATIONAL_CODES, ...REJECTION_CODES].map((code) => exitCodeFor(code)));
    expect(mapped).toContain(69);
    expect(mapped).toContain(78);
    for (const status of mapped) expect(human).toMatch(new RegExp(`^ *${status}  \\S`, 'm'));
  });

  it('no document repeats the exit-status table by hand: it points at help exit-codes', () => {
    const statuses = new Set(Object.values(EXIT).map(String));
    const docs = [
      'README.md',
      ...readdirSync(path.join(ROOT, 'docs')).map((f) => path.join('docs', f)),
    ].filter((f) => f.endsWith('.md'));
    expect(docs.length).toBeGreaterThan(10);
    for (const doc of docs) {
      // a row or an item that starts with an exit status: `| 3 | …`, `- 3: …`, `- \`3\` …`
      const rows = readFileSync(path.join(ROOT, doc), 'utf8')
        .split('\n')
        .filter((line) => {
          const m = /^\s*(?:\||[-*])\s*(?:`(\d+)`|(\d+)\s*(?:\||:|—|-|\s{2}))/.exec(line);
          return m !== null && statuses.has((m[1] ?? m[2]) as string);
        });
      expect(rows, doc).toHaveLength(0);
    }
  });

  it('environment lists every variable the CLI and the tests read, and the options quote the same table', async () => {
    const read = variablesRead(['src', 'property-tests']);
    for (const name of ['CLEARANCE_DIR', 'CLEARANCE_ACTOR', 'CLEARANCE_LOCK_TIMEOUT_MS', 'NO_COLOR'])
      expect(read).toContain(name); // the scan finds what it must
    const listed = ENVIRONMENT.map((v) => v.name);
    expect([...read].filter((name) => !listed.includes(name) && name !== 'CI')).toEqual([]);
    const human = await cli(['help', 'environment']);
    expect(human.code).toBe(0);
    for (const name of listed) expect(human.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const json = await cli(['help', 'environment', '--json']);
    expect((json.json.variables as Array<{ name: string }>).map((v) => v.name)).toEqual(listed);
    const help = (await cli(['--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--dir <dir> the store (default $CLEARANCE_DIR; else git');
    expect(help).toContain('(default $CLEARANCE_ACTOR; else the OS user)');
    expect(help).toContain(`(default $CLEARANCE_LOCK_TIMEOUT_MS; else ${DEFAULT_LOCK_TIMEOUT_MS})`);
    expect(help).toContain('clearance help exit-codes');
  });

  it("a command's name prints that command's help; an unknown topic is a usage error naming the topics", async () => {
    const gate = await cli(['help', 'gate']);
    expect([gate.code, gate.stdout]).toEqual([0, expect.stringContaining('Usage: clearance gate')]);
    expect((await cli(['help'])).stdout).toContain('Usage: clearance [options] [command]');
    const unknown = await cli(['help', 'nope', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ ok: false, error: { code: 'usage' } });
    expect((unknown.json.error as { message: string }).message).toMatch(/exit-codes or environment/);
  });
});
