import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/index.js';
import { findingId } from '../../src/index.js';
import { artifactUri, SARIF_SCHEMA, TOOL_INFORMATION_URI } from '../../src/render/sarif.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/git-repo.js';
import { sarifValidationErrors } from './sarif-validator.js';

/** Where the OASIS Standard publishes its schema (errata 01): what a clearance log names as `$schema`. */
const OASIS_SCHEMA_ID =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

import { LEAK, STYLE } from './scenario.js';

/**
 * SARIF as the reference validator reads it (sarif-validator.ts): every kind of log `clearance
 * sarif` writes passes it, the file names a URI cannot hold raw included.
 */

type Suppression = Record<string, unknown>;
type Result = {
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
  suppressions?: Suppression[];
  properties: { findingId: string; tags: string[] };
};
type Log = { $schema: string; runs: Array<{ results: Result[] }> };

const sha = (label: string) => label.padEnd(40, '0');

/** A fresh store, with the run opened; `record` appends a report, `sarif` prints a round's log. */
const freshRun = async (runId: string, policy?: unknown) => {
  const dir = tempDir('clearance-sarif-conformance-');
  const run = (args: string[], input?: string) =>
    cli(['--dir', dir, ...args], input === undefined ? {} : { input });
  const ok = async (args: string[], input?: string) => {
    const r = await run(args, input);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const policyArgs: string[] = [];
  if (policy !== undefined) {
    const file = path.join(dir, 'policy.json');
    await writeFile(file, JSON.stringify(policy));
    policyArgs.push('--policy-file', file);
  }
  await ok(['open', runId, ...policyArgs, '--input-sha', sha('A')]);
  return {
    ok,
    record: (report: Record<string, unknown>) =>
      ok(['record', runId, '--report', '-'], JSON.stringify({ runId, completed: true, ...report })),
    sarif: async (round: number) =>
      JSON.parse((await ok(['sarif', runId, '--round', String(round)])).stdout) as Log,
  };
};

const resultFor = (log: Log, id: string): Result => {
  const found = log.runs[0]?.results.find((r) => r.properties.findingId === id);
  if (found === undefined) throw new Error(`no result for finding ${id}`);
  return found;
};

describe('clearance sarif by the SARIF Multitool', () => {
  it('a finding in a document section has no region, which is all the validator says of it; the tool names its home', async () => {
    const r = await freshRun('sections');
    const inSection = {
      ...LEAK,
      file: 'docs/spec.md',
      line: undefined,
      section: 'Retries',
      summary: 'unbounded',
    };
    await r.record({ round: 1, inputSha: sha('A'), candidates: [LEAK, inSection] });
    const log = await r.sarif(1);
    expect(sarifValidationErrors(log)).toEqual([]);
    const located = resultFor(log, findingId(inSection as Candidate)).locations[0] as unknown;
    expect(located).toEqual({
      physicalLocation: { artifactLocation: { uri: 'docs/spec.md' } },
      logicalLocations: [{ name: 'Retries', kind: 'section' }],
    });
    const homepage = JSON.parse(await readFile(path.resolve('package.json'), 'utf8')).homepage as string;
    expect(`${TOOL_INFORMATION_URI}#readme`).toBe(homepage);
    // a location with neither a line nor a section is still a warning the validator reports
    const bare = structuredClone(log);
    const result = resultFor(bare, findingId(inSection as Candidate)) as unknown as { locations: unknown[] };
    result.locations = [{ physicalLocation: { artifactLocation: { uri: 'docs/spec.md' } } }];
    expect(sarifValidationErrors(bare)).toEqual([expect.stringMatching(/^SARIF2017 \(warning\): /)]);
  });
});

describe('clearance sarif by the SARIF 2.1.0 schema', () => {
  it('a two-round run with a suppressed finding is valid, its suppression as SARIF defines one', async () => {
    const r = await freshRun('suppressed', {
      name: 'suppressed',
      maxRounds: 2,
      severities: { major: { blocks: true }, minor: { blocks: false } },
    });
    await r.record({ round: 1, inputSha: sha('A'), candidates: [LEAK, STYLE] });
    await r.ok([
      'capture',
      'suppressed',
      '--input-sha',
      sha('B'),
      '--touched',
      LEAK.file,
      '--touched',
      STYLE.file,
    ]);
    await r.record({
      round: 2,
      inputSha: sha('B'),
      decisions: [
        { id: findingId(LEAK), status: 'open', evidence: 'still leaks' },
        { id: findingId(STYLE), status: 'withdrawn', evidence: 'the formatter owns quotes' },
      ],
    });
    const log = await r.sarif(2);
    expect(sarifValidationErrors(log)).toEqual([]);
    expect(log.$schema).toBe(OASIS_SCHEMA_ID);
    expect(SARIF_SCHEMA).toBe(OASIS_SCHEMA_ID);
    // kind, status and justification are SARIF's own; the rest is clearance's, in the property bag
    expect(resultFor(log, findingId(STYLE)).suppressions).toEqual([
      {
        kind: 'external',
        status: 'accepted',
        justification: 'the formatter owns quotes',
        properties: { decidedBy: 'tester', decision: 'withdrawn', round: 2, how: 'round decision' },
      },
    ]);
    expect(resultFor(log, findingId(LEAK)).suppressions).toBeUndefined();

    // the schema checks suppressions: clearance's data outside the property bag is refused
    const broken = structuredClone(log);
    const suppression = resultFor(broken, findingId(STYLE)).suppressions?.[0] as Suppression;
    suppression.decidedBy = 'tester';
    expect(sarifValidationErrors(broken)).toEqual([
      expect.stringMatching(/^JSON1005 \(error\): .*suppressions\[0\]\.decidedBy/),
    ]);
  });

  it('file names a URI cannot hold raw are percent-encoded, and read back as the same path', async () => {
    const files = ['src/my file.js', 'docs/Ünïcode #1?.md', 'lib/100%.js', 'app/[id]/page.tsx'];
    const candidates: Candidate[] = files.map((file, n) => ({
      ...LEAK,
      file,
      line: n + 1,
      summary: `finding ${n}`,
      // a severity named like clearance's own tag: the tags stay a set
      severity: 'blocking',
    }));
    const r = await freshRun('odd-paths', {
      name: 'odd-paths',
      maxRounds: 2,
      severities: { blocking: { blocks: true } },
    });
    await r.record({ round: 1, inputSha: sha('A'), candidates });
    const log = await r.sarif(1);
    expect(sarifValidationErrors(log)).toEqual([]);
    for (const c of candidates) {
      const result = resultFor(log, findingId(c));
      const uri = result.locations[0]?.physicalLocation.artifactLocation.uri ?? '';
      // read as code scanning reads it: a reference against the checkout's root
      const url = new URL(uri, 'file:///checkout/');
      expect([url.search, url.hash], uri).toEqual(['', '']);
      expect(url.pathname.split('/').map(decodeURIComponent).join('/')).toBe(`/checkout/${c.file}`);
      expect(result.properties.tags).toEqual(['blocking']);
    }
    expect(resultFor(log, findingId(candidates[0] as Candidate)).locations[0]).toMatchObject({
      physicalLocation: { artifactLocation: { uri: 'src/my%20file.js' } },
    });

    // the schema checks URIs: the raw name is refused
    const raw = structuredClone(log);
    const location = raw.runs[0]?.results[0]?.locations[0];
    if (location === undefined) throw new Error('no location in the first result');
    location.physicalLocation.artifactLocation.uri = files[0] as string;
    expect(sarifValidationErrors(raw)).toEqual([
      expect.stringMatching(/^SARIF1002 \(error\): .*artifactLocation\.uri, src\/my file\.js$/),
    ]);
  });

  it('a name with no UTF-8 form still makes a URI instead of throwing', () => {
    expect(artifactUri('src/a\uD800b.js')).toBe('src/a%EF%BF%BDb.js');
    expect(artifactUri('src/\uD83D\uDE00.js')).toBe('src/%F0%9F%98%80.js');
    expect(artifactUri('src/service.js')).toBe('src/service.js');
  });
});
