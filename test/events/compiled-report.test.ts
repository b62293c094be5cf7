import { inspect } from 'node:util';
import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { numRuns } from '../../property-tests/runs.js';
import type { Rejection, RoundReport } from '../../src/index.js';

// The build replaces src/events/compiled-report.ts with the parser zod's compiler makes of
// ReportSchema (scripts/compile-report-parser.mjs), and parseReport takes that parser's value when
// it gives one. So this holds the built library (lib/, as `npm test` builds it first, and as the CLI
// bundles the same module) to zod itself: on generated reports, well formed and not, the compiled
// parser accepts exactly what zod accepts and gives back exactly zod's value, key order and
// `undefined`s included, and leaves every refusal to zod.

type Built = {
  parseCompiledReport: (input: unknown) => unknown;
  ReportSchema: z.ZodType<RoundReport>;
  parseReport: (input: unknown) => E.Either<Rejection, RoundReport>;
  describeIssues: (issues: ReadonlyArray<z.core.$ZodIssue>, what: string) => { text: string };
};
const lib = (file: string) => import(new URL(`../../packages/fold/lib/events/${file}`, import.meta.url).href);
const { parseCompiledReport, ReportSchema, parseReport, describeIssues } = {
  ...(await lib('compiled-report.js')),
  ...(await lib('round-report.js')),
  ...(await lib('schema-issues.js')),
} as Built;

/** One node of the report's schema, as the generators below read it. */
type Shape =
  | Readonly<{ kind: 'string'; max?: number; checks: ReadonlyArray<string> }>
  | Readonly<{ kind: 'number'; checks: ReadonlyArray<string> }>
  | Readonly<{ kind: 'boolean' }>
  | Readonly<{ kind: 'enum'; values: ReadonlyArray<string> }>
  | Readonly<{ kind: 'array'; max: number; element: Shape }>
  | Readonly<{ kind: 'object'; fields: ReadonlyArray<readonly [string, Shape]> }>
  | Readonly<{ kind: 'optional'; inner: Shape }>
  | Readonly<{ kind: 'default-empty'; inner: Shape }>;

type Def = Readonly<Record<string, unknown>> & { type: string };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Def[] => ((def.checks as unknown[] | undefined) ?? []).map(defOf);
/** A door check by its function's name (`isOneLine`, `isTokenCount`, …). */
const customChecks = (def: Def): string[] =>
  checksOf(def).flatMap((c) => (c.check === 'custom' ? [(c.fn as () => unknown).name] : []));

/** The report's schema, read from zod's own definitions: what the generators aim at and around. */
const shapeOf = (schema: unknown): Shape => {
  const def = defOf(schema);
  switch (def.type) {
    case 'lazy':
      return shapeOf((def.getter as () => unknown)());
    case 'string': {
      const max = checksOf(def).find((c) => c.check === 'max_length')?.maximum as number | undefined;
      return max === undefined
        ? { kind: 'string', checks: customChecks(def) }
        : { kind: 'string', max, checks: customChecks(def) };
    }
    case 'number':
      return { kind: 'number', checks: customChecks(def) };
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum':
      return { kind: 'enum', values: Object.values(def.entries as Record<string, string>) };
    case 'array': {
      const max = checksOf(def).find((c) => c.check === 'max_length')?.maximum as number;
      return { kind: 'array', max, element: shapeOf(def.element) };
    }
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return { kind: 'object', fields: Object.keys(shape).map((key) => [key, shapeOf(shape[key])] as const) };
    }
    case 'optional':
      return { kind: 'optional', inner: shapeOf(def.innerType) };
    case 'default':
      return { kind: 'default-empty', inner: shapeOf(def.innerType) };
    default:
      throw new Error(`a zod ${def.type} the generators do not know`);
  }
};
const REPORT_SHAPE = shapeOf(ReportSchema);

describe('the compiled report parser', () => {
  it('is in the built library, and parses a well-formed report', () => {
    const report = { runId: 'r', round: 1, inputSha: 'a'.repeat(40), completed: true };
    expect(parseCompiledReport(report)).toEqual({ ...report, candidates: [], decisions: [] });
  });
});

// ---- generated reports, near the shape and across every way to miss it

const surrogatePair = '\u{1F600}';
/** Strings at a bound: as long as allowed, one over, and one over in UTF-16 units only (zod counts code points). */
const atBound = (max: number): fc.Arbitrary<string> =>
  fc.constantFrom('a'.repeat(max), 'a'.repeat(max + 1), `${'a'.repeat(max - 1)}${surrogatePair}`);
const words = fc.constantFrom(
  'src/a.js',
  'x',
  'correctness',
  'major',
  'ada',
  'CI bot',
  'ok . ok',
  '.github/x.yml',
);
const HOSTILE_TEXT = [
  '',
  ' ',
  'a\nb',
  'tab\there',
  'nul\u0000',
  'bidi\u202e',
  'line\u2028sep',
  'lone\uD800',
  'lone\uDC00x',
  `${surrogatePair}ok`,
  '/abs',
  'a//b',
  '../up',
  'a/./b',
  'back\\slash',
  'C:drive',
  'file:x',
  'é/ü.js',
  ' x'.repeat(140),
];
const hostileText = fc.constantFrom(...HOSTILE_TEXT);
const NOT_A_STRING = [null, undefined, 0, 1.5, Number.NaN, true, [], {}, ['a'], { length: 3 }, new Date(0)];
const notAString = fc.constantFrom(...NOT_A_STRING);
const ODD_NUMBERS = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  Number.MIN_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER - 1,
  -0,
  '1',
  null,
  true,
];
const numbers = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(...ODD_NUMBERS),
);

/** Values for `shape`: mostly ones it accepts, and every kind of value it refuses. */
const valueFor = (shape: Shape, depth = 0): fc.Arbitrary<unknown> => {
  switch (shape.kind) {
    case 'string': {
      const good = shape.checks.includes('isActorName') ? fc.constantFrom('ada', 'CI bot', 'é') : words;
      const edges = shape.max === undefined ? [fc.constant('n'.repeat(257))] : [atBound(shape.max)];
      return fc.oneof(
        { arbitrary: good, weight: 6 },
        hostileText,
        notAString,
        fc.string({ maxLength: 6 }),
        ...edges,
      );
    }
    case 'number':
      return fc.oneof({ arbitrary: fc.integer({ min: 1, max: 9 }), weight: 4 }, numbers);
    case 'boolean':
      return fc.oneof({ arbitrary: fc.boolean(), weight: 4 }, fc.constantFrom(0, 'true', null, undefined));
    case 'enum':
      return fc.oneof(
        { arbitrary: fc.constantFrom(...shape.values), weight: 4 },
        fc.constantFrom('Open', '', 1, null),
      );
    case 'array': {
      const element = valueFor(shape.element, depth + 1);
      const over = fc
        .constant(null)
        .map(() => new Array(shape.max + 1).fill(shape.element.kind === 'string' ? 'a' : {}));
      return fc.oneof(
        { arbitrary: fc.array(element, { maxLength: depth > 1 ? 1 : 3 }), weight: 8 },
        { arbitrary: over, weight: 1 },
        fc.constantFrom('[]', {}, null),
        // a hole reads as undefined, as zod reads it
        fc.constant(null).map(() => {
          const holed = new Array(2);
          holed[1] = 'a';
          return holed;
        }),
      );
    }
    case 'object': {
      const fields = shape.fields.map(([key, field]) =>
        fc
          .tuple(
            fc.constantFrom('value', 'value', 'value', 'value', 'absent', 'undefined'),
            valueFor(field, depth + 1),
          )
          .map(([how, value]) => [key, how, value] as const),
      );
      return fc
        .tuple(
          fc.tuple(...fields),
          fc.constantFrom(
            'plain',
            'plain',
            'plain',
            'extra key',
            'inherited key',
            '__proto__ key',
            'array',
            'null',
          ),
        )
        .map(([chosen, form]) => {
          if (form === 'array') return [];
          if (form === 'null') return null;
          const proto = form === 'inherited key' ? { inheritedKey: 1 } : Object.prototype;
          const out = Object.create(proto) as Record<string, unknown>;
          for (const [key, how, value] of chosen) {
            if (how === 'value') out[key] = value;
            if (how === 'undefined') out[key] = undefined;
          }
          if (form === 'extra key') out.misspelt = 1;
          if (form === '__proto__ key')
            Object.defineProperty(out, '__proto__', { value: 1, enumerable: true });
          return out;
        });
    }
    case 'optional':
      return fc.oneof({ arbitrary: valueFor(shape.inner, depth), weight: 3 }, fc.constant(undefined));
    case 'default-empty':
      return fc.oneof({ arbitrary: valueFor(shape.inner, depth), weight: 3 }, fc.constant(undefined));
  }
};

/** Values `shape` accepts. */
const validFor = (shape: Shape, depth = 0): fc.Arbitrary<unknown> => {
  switch (shape.kind) {
    case 'string':
      return shape.checks.includes('isActorName') ? fc.constantFrom('ada', 'CI bot', 'é') : words;
    case 'number':
      if (shape.checks.includes('isTokenCount')) return fc.nat({ max: 1e9 });
      return fc.oneof(
        fc.integer({ min: 0, max: 9 }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.constant(-0),
      );
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...shape.values);
    case 'array':
      return fc.array(validFor(shape.element, depth + 1), { maxLength: depth > 1 ? 1 : 2 });
    case 'object':
      return fc
        .tuple(
          ...shape.fields.map(([key, field]) =>
            fc.tuple(
              fc.constant(key),
              fc.constantFrom('value', 'value', 'absent', 'undefined'),
              validFor(field, depth + 1),
            ),
          ),
        )
        .map((chosen) => {
          const out: Record<string, unknown> = {};
          for (const [key, how, value] of chosen) {
            const field = shape.fields.find(([k]) => k === key)?.[1];
            const omittable = field?.kind === 'optional' || field?.kind === 'default-empty';
            if (how === 'value' || !omittable) out[key] = value;
            else if (how === 'undefined') out[key] = undefined;
          }
          return out;
        });
    case 'optional':
    case 'default-empty':
      return fc.oneof({ arbitrary: validFor(shape.inner, depth), weight: 3 }, fc.constant(undefined));
  }
};

/** A value `shape` accepts but for one place, anywhere inside it, that holds a value of any kind. */
const nearFor = (shape: Shape, depth = 0): fc.Arbitrary<unknown> => {
  const wrong = (s: Shape) => fc.oneof(valueFor(s, depth + 1), nearFor(s, depth + 1));
  switch (shape.kind) {
    case 'object':
      return fc.tuple(validFor(shape, depth), fc.nat(shape.fields.length - 1)).chain(([base, k]) => {
        const [key, field] = shape.fields[k] as readonly [string, Shape];
        return wrong(field).map((value) => ({ ...(base as object), [key]: value }));
      });
    case 'array':
      return fc
        .tuple(
          fc.array(validFor(shape.element, depth + 1), { maxLength: 2 }),
          wrong(shape.element),
          fc.nat(2),
        )
        .map(([items, odd, at]) => {
          const out = [...items];
          out.splice(Math.min(at, out.length), 0, odd);
          return out;
        });
    case 'optional':
    case 'default-empty':
      return nearFor(shape.inner, depth);
    default:
      return valueFor(shape, depth);
  }
};

/** A value as zod built it, keys in order and `undefined` kept, for an exact comparison. */
const exactly = (value: unknown): string =>
  inspect(value, { depth: null, sorted: false, maxArrayLength: null });

const compare = (input: unknown): { accepted: boolean } => {
  const byZod = ReportSchema.safeParse(input, { reportInput: true });
  const compiled = parseCompiledReport(input);
  const parsed = parseReport(input);
  if (byZod.success) {
    expect(compiled, 'zod accepts, so must the compiled parser').not.toBeUndefined();
    expect(exactly(compiled)).toBe(exactly(byZod.data));
    expect(E.isRight(parsed) && exactly(parsed.right)).toBe(exactly(byZod.data));
  } else {
    expect(compiled, 'zod refuses, so must the compiled parser').toBeUndefined();
    // the refusal is zod's: its issues, described as they always were
    expect(E.isLeft(parsed) && parsed.left.message).toBe(
      `invalid round report: ${describeIssues(byZod.error.issues as z.core.$ZodIssue[], 'report').text}`,
    );
  }
  return { accepted: byZod.success };
};

describe('parsing a report with zod compiled ahead of time', () => {
  /** Reports of every kind: well formed, wrong in one place anywhere, and wrong anywhere. */
  const reports = fc.oneof(
    { arbitrary: validFor(REPORT_SHAPE), weight: 2 },
    { arbitrary: nearFor(REPORT_SHAPE), weight: 5 },
    { arbitrary: valueFor(REPORT_SHAPE), weight: 1 },
  );

  it('accepts exactly what zod accepts, with zod’s value, and leaves every refusal and its code to zod', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(reports, (input) => {
        if (compare(input).accepted) accepted += 1;
        else refused += 1;
      }),
      { numRuns: numRuns * 20 },
    );
    // the generator reaches both sides
    expect(accepted).toBeGreaterThan(numRuns);
    expect(refused).toBeGreaterThan(numRuns);
  });

  it('agrees with zod at every node of the schema, one node at a time, on values of every kind', () => {
    // the property above reaches a node deep in the report now and then; this reaches each one
    const full = (shape: Shape): unknown => {
      switch (shape.kind) {
        case 'string':
          return shape.checks.includes('isActorName') ? 'ada' : 'src/a.js';
        case 'number':
          return 1;
        case 'boolean':
          return true;
        case 'enum':
          return shape.values[0];
        case 'array':
          return [full(shape.element)];
        case 'object':
          return Object.fromEntries(shape.fields.map(([key, field]) => [key, full(field)]));
        case 'optional':
        case 'default-empty':
          return full(shape.inner);
      }
    };
    /** Every node with the path to it, through objects, arrays (their first element) and optionals. */
    const nodes = (
      shape: Shape,
      at: ReadonlyArray<string | number> = [],
    ): Array<[Array<string | number>, Shape]> => {
      const inner =
        shape.kind === 'object'
          ? shape.fields.flatMap(([key, field]) => nodes(field, [...at, key]))
          : shape.kind === 'array'
            ? nodes(shape.element, [...at, 0])
            : shape.kind === 'optional' || shape.kind === 'default-empty'
              ? nodes(shape.inner, at)
              : [];
      return [[[...at], shape], ...inner];
    };
    const setAt = (value: unknown, at: ReadonlyArray<string | number>, to: unknown): unknown => {
      if (at.length === 0) return to;
      const [key, ...rest] = at as [string | number, ...Array<string | number>];
      const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
        string | number,
        unknown
      >;
      copy[key] = setAt(copy[key], rest, to);
      return copy;
    };
    const holed = new Array(2);
    holed[1] = 'a';
    /** Every kind of value a node refuses, and the edges of what it accepts. */
    const valuesAt = (shape: Shape): unknown[] => {
      switch (shape.kind) {
        case 'string': {
          const max = shape.max ?? 256;
          return [
            ...HOSTILE_TEXT,
            ...NOT_A_STRING,
            'a'.repeat(max),
            'a'.repeat(max + 1),
            `${'a'.repeat(max - 1)}${surrogatePair}`,
          ];
        }
        case 'number':
          return [...ODD_NUMBERS, 0, -1, 1.5];
        case 'boolean':
          return [false, 0, 'true', null, undefined];
        case 'enum':
          return [...shape.values, 'Open', '', 1, null, undefined];
        case 'array':
          return [[], new Array(shape.max + 1).fill(full(shape.element)), '[]', {}, null, holed];
        case 'object': {
          const inherited = Object.assign(Object.create({ inheritedKey: 1 }), full(shape));
          const proto = JSON.parse(`{"__proto__":1,${JSON.stringify(full(shape)).slice(1)}`);
          return [null, [], {}, { ...(full(shape) as object), misspelt: 1 }, inherited, proto];
        }
        case 'optional':
        case 'default-empty':
          return [undefined];
      }
    };
    const base = full(REPORT_SHAPE);
    expect(compare(base).accepted).toBe(true);
    let refused = 0;
    for (const [at, shape] of nodes(REPORT_SHAPE))
      for (const value of valuesAt(shape)) if (!compare(setAt(base, at, value)).accepted) refused += 1;
    expect(refused).toBeGreaterThan(100);
  });

  it('generates reports each door check refuses, with its own code', () => {
    // a fixed seed: some codes sit one field deep in one of eleven (cost.tokens), and on fresh seeds
    // a thousand reports missed one now and then; the property above draws new seeds every run
    const codes = new Set<string>();
    for (const input of fc.sample(reports, { numRuns: 2000, seed: 25 })) {
      const parsed = parseReport(input);
      if (E.isLeft(parsed)) codes.add(parsed.left.code);
    }
    for (const code of [
      'invalid-report',
      'over-limit',
      'invalid-text',
      'invalid-path',
      'invalid-actor',
      'invalid-cost',
    ])
      expect(codes).toContain(code);
  });

  it('holds on the reports each door check refuses, and on what JSON cannot say', () => {
    const report = { runId: 'r', round: 1, inputSha: 'a'.repeat(40), completed: true };
    const candidate = {
      file: 'src/a.js',
      line: 3,
      category: 'correctness',
      summary: 'Unchecked error',
      severity: 'major',
      confirmed: true,
      evidence: 'e',
    };
    const cases: Array<[unknown, string | undefined]> = [
      [report, undefined],
      [{ ...report, candidates: [candidate], decisions: [] }, undefined],
      [{ ...report, candidates: [{ ...candidate, file: '../etc/passwd' }] }, 'invalid-path'],
      [{ ...report, candidates: [{ ...candidate, file: '' }] }, undefined],
      [
        {
          ...report,
          verifications: [{ file: '', category: 'c', summary: 's', verdict: 'refuted', evidence: 'e' }],
        },
        'invalid-path',
      ],
      [{ ...report, candidates: [{ ...candidate, summary: 'two\nlines' }] }, 'invalid-text'],
      [{ ...report, candidates: [{ ...candidate, evidence: 'lone \uD800' }] }, 'invalid-text'],
      [{ ...report, reviewer: ' ' }, 'invalid-actor'],
      [{ ...report, reviewer: 'x\uD800' }, 'invalid-text'],
      [{ ...report, reviewer: 'r'.repeat(257) }, 'invalid-actor'],
      [{ ...report, runId: 'r'.repeat(129) }, 'over-limit'],
      [{ ...report, runId: `${'r'.repeat(127)}${surrogatePair}` }, undefined],
      [{ ...report, round: Number.NaN }, 'invalid-report'],
      [{ ...report, round: Number.POSITIVE_INFINITY }, 'invalid-report'],
      [{ ...report, round: 2 ** 53 }, 'invalid-report'],
      [{ ...report, cost: { tokens: 1, usd: undefined } }, undefined],
      [{ ...report, cost: { tokens: 0, usd: 0.04, seconds: 1.5 } }, undefined],
      [{ ...report, cost: { tokens: 1.5 } }, 'invalid-cost'],
      [{ ...report, cost: { tokens: -1 } }, 'invalid-cost'],
      [{ ...report, cost: { tokens: 2 ** 53 } }, 'invalid-report'],
      [{ ...report, candidates: undefined, verdict: undefined }, undefined],
      [{ ...report, notExamined: new Array(201).fill('x') }, 'over-limit'],
      [Object.assign(Object.create({ extra: 1 }), report), 'invalid-report'],
      [JSON.parse(`{"__proto__":1,${JSON.stringify(report).slice(1)}`), 'invalid-report'],
    ];
    for (const [input, code] of cases) {
      compare(input);
      const parsed = parseReport(input);
      expect(E.isLeft(parsed) ? parsed.left.code : undefined, exactly(input).slice(0, 200)).toBe(code);
    }
  });
});
