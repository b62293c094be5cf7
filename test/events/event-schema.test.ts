import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numRuns } from '../../property-tests/runs.js';
import {
  EVENT_TYPES,
  type EventType,
  encodeLine,
  eventJsonSchema,
  latestVersion,
  reportJsonSchema,
  ZERO_HASH,
} from '../../src/index.js';
import { reachableRunArb } from '../../src/testing.js';

// `clearance schema event` is generated from the codecs the registry decodes with and the doors'
// schemas: here every line clearance wrote into a frozen log, and every event of a generated run
// written as a line, is what it describes, as a JSON Schema validator in another language reads it.

// ajv is CommonJS: under NodeNext its class is the default export's `default`
const validate = new Ajv2020Module.default({ strict: false }).compile(eventJsonSchema());
const problems = (line: unknown): string[] =>
  validate(line) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

type Line = Readonly<{ type: EventType; v: number; data: Record<string, unknown> }>;

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
const frozenLines = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && /^v[0-9]+$/.test(d.name))
  .flatMap((version) =>
    readdirSync(`${FIXTURES}${version.name}`)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) =>
        readFileSync(`${FIXTURES}${version.name}/${f}`, 'utf8')
          .split('\n')
          .filter((text) => text !== '')
          .map((text, i) => ({ where: `${f}:${i + 1}`, line: JSON.parse(text) as Line })),
      ),
  );
// a line written at an older version is read through its upcasters; the schema is the latest's
const latest = frozenLines.filter(({ line }) => line.v === latestVersion(line.type));

describe('the JSON Schema of a log line', () => {
  it('describes every line of every frozen log written at its type’s latest version, of every type', () => {
    expect(new Set(latest.map(({ line }) => line.type))).toEqual(new Set(EVENT_TYPES));
    const invalid = latest.flatMap(({ where, line }) => problems(line).map((p) => `${where}: ${p}`));
    expect(invalid).toEqual([]);
  });

  it('describes every event of a generated run, as encodeLine writes it', () => {
    fc.assert(
      fc.property(reachableRunArb, ({ events }) => {
        events.forEach((event, i) => {
          const line = JSON.parse(
            encodeLine({ seq: i + 1, at: '2026-12-01T00:00:00.000Z', by: 'ci', prev: ZERO_HASH, ...event }),
          );
          expect(problems(line), line.type).toEqual([]);
        });
      }),
      { numRuns },
    );
  });

  it('refuses a line at an older version, a key no writer writes and a fractional round', () => {
    const ruled = latest.find(({ line }) => line.type === 'finding.ruled')?.line as Line;
    expect(problems(ruled)).toEqual([]);
    expect(problems({ ...ruled, v: 1 })).not.toEqual([]);
    expect(problems({ ...ruled, data: { ...ruled.data, misspelt: 1 } })).not.toEqual([]);
    const captured = latest.find(({ line }) => line.type === 'revision.captured')?.line as Line;
    expect(problems({ ...captured, data: { ...captured.data, round: 1.5 } })).not.toEqual([]);
  });

  it('holds the report as the door describes it, and the policy as its door does', () => {
    const { $schema: _, ...report } = reportJsonSchema();
    const dataOf = (type: EventType) => {
      const branches = (eventJsonSchema().oneOf ?? []) as Array<{
        properties: { type: { const: string }; data: { properties: Record<string, unknown> } };
      }>;
      return branches.find((b) => b.properties.type.const === type)?.properties.data.properties ?? {};
    };
    expect(dataOf('round.recorded').report).toEqual(report);
    expect(dataOf('contribution.recorded').report).toEqual(report);
    expect(dataOf('run.opened').policy).toMatchObject({
      properties: { signers: { description: expect.stringContaining('rulings count') } },
    });
  });
});
