import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { candidate, report } from '../support/builders.js';
import { type CliResult, cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// the README's several-reviewers section moved here
const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/reviewers.md');

/** The command lines of the blocks in docs/reviewers.md "Handing in: contribute, collect, record --merge", comments dropped. */
const readmeBlocks = async (): Promise<string[][]> => {
  const text = await readFile(DOC, 'utf8');
  const start = text.indexOf('## Handing in: contribute, collect, record --merge');
  if (start === -1) throw new Error('docs/reviewers.md has no section on handing in');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== ''),
  );
};

/**
 * One documented line, run in process as a shell would: words split on spaces, `< file` read as
 * standard input (the lines hold no quotes or other shell syntax; the test fails if they do).
 */
const runLine = async (line: string, cwd: string, dir: string): Promise<CliResult> => {
  expect(line).toMatch(/^clearance [^'"`$|;&]*$/);
  const [command, redirect] = line.split(' < ');
  const args = (command ?? '').split(' ').slice(1);
  const input = redirect === undefined ? undefined : await readFile(path.join(cwd, redirect.trim()), 'utf8');
  return cli(args, { cwd, env: { CLEARANCE_DIR: dir }, ...(input === undefined ? {} : { input }) });
};

const INPUT = 'A';
const security = report(1, INPUT, { runId: 'pr-236', candidates: [candidate({ category: 'security' })] });
const style = report(1, INPUT, { runId: 'pr-236', candidates: [candidate({ summary: 'Missing close()' })] });

/** A store with pr-236 opened under a policy expecting security, style and docs. */
const panelStore = async () => {
  const cwd = await tempDir();
  const dir = path.join(cwd, 'store');
  const policy = path.join(cwd, 'policy.json');
  await writeFile(
    policy,
    JSON.stringify({
      name: 'panel',
      maxRounds: 2,
      severities: { major: { blocks: true } },
      experts: ['security', 'style', 'docs'],
    }),
  );
  const opened = await cli([
    '--dir',
    dir,
    'open',
    'pr-236',
    '--policy-file',
    policy,
    '--input-sha',
    report(1, INPUT).inputSha,
  ]);
  expect(opened.code).toBe(0);
  return { cwd, dir };
};

describe("docs/reviewers.md's round from several reviewers, run as written", () => {
  it('contribute, contribute from standard input, record --merge: one finding from both, docs absent, the round partial', async () => {
    const [lines] = await readmeBlocks();
    expect(lines?.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      'clearance contribute',
      'clearance contribute',
      'clearance record',
    ]);
    const { cwd, dir } = await panelStore();
    await writeFile(path.join(cwd, 'security.json'), JSON.stringify(security));
    await writeFile(path.join(cwd, 'style.json'), JSON.stringify(style));
    for (const line of lines ?? []) {
      const result = await runLine(line, cwd, dir);
      expect({ line, code: result.code, stderr: result.stderr }).toEqual({ line, code: 0, stderr: '' });
    }
    const status = await cli(['--dir', dir, 'status', 'pr-236', '--json']);
    expect(status.json.rounds).toMatchObject([{ round: 1, result: 'partial' }]);
    expect(status.json.panels).toMatchObject([
      { round: 1, contributors: ['security', 'style'], absent: [{ expert: 'docs', reason: 'missing' }] },
    ]);
    expect(status.json.findings).toHaveLength(1);
  });

  it('collect: two published reports, each appended, the round closed with their merge', async () => {
    const [, lines] = await readmeBlocks();
    expect(lines).toHaveLength(1);
    const { cwd, dir } = await panelStore();
    await mkdir(path.join(cwd, 'review'));
    for (const [name, value] of [
      ['security', security],
      ['style', style],
    ] as const) {
      await writeFile(path.join(cwd, `${name}-draft.json`), JSON.stringify(value));
      const published = await cli([
        'publish',
        path.join(cwd, 'review', `${name}.json`),
        '--report',
        path.join(cwd, `${name}-draft.json`),
      ]);
      expect(published.code).toBe(0);
    }
    const collected = await runLine(lines?.[0] ?? '', cwd, dir);
    expect({ code: collected.code, stderr: collected.stderr }).toEqual({ code: 0, stderr: '' });
    const status = await cli(['--dir', dir, 'status', 'pr-236', '--json']);
    expect(status.json.panels).toMatchObject([
      { round: 1, contributors: ['security', 'style'], absent: [{ expert: 'docs', reason: 'missing' }] },
    ]);
  });
});
