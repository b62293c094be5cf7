// The round report's parser, compiled ahead of time by zod's own compiler from the one schema,
// ReportSchema (src/events/round-report.ts). Building zod's schema graph and compiling its first
// parse cost `record` about 6 ms, a tenth of a bare Node start; this parser needs neither. It gives
// back exactly zod's value for a report zod accepts and INVALID for any other, and parseReport then
// asks zod itself, so every refusal, its code and its message, is still zod's.
//
// zod's compiler (`compileFn`, zod/v4/core) writes the parser's body as source and builds it with
// `new Function(...names, body)`, called with the constants the body refers to: zod's own helpers,
// the report's door checks (report-text.ts, token-count.ts), enum sets and defaults. Those values
// are caught here, for the length of one call, and written as a module: an import for each check, a
// literal for each set and default, zod's two helpers written out (ZOD_HELPERS). A constant of any
// other kind stops the build, as does a part of the schema zod's compiler leaves to its runtime.
// scripts/build.mjs puts the module in the fold's lib/ in place of src/events/compiled-report.ts (which,
// unbuilt, vouches for nothing), and scripts/bundle-cli.mjs in the CLI bundle;
// test/events/compiled-report.test.ts holds it to zod on generated reports and at every node.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';
import { compileFn } from 'zod/v4/core';

/** Where a function the schema calls comes from: `[module specifier, export name]`, by identity. */
const exportsOf = async (dir) => {
  const found = new Map();
  // index.js re-exports the others: each function is named by the module that defines it
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.js') && f !== 'index.js')
    .sort()) {
    const module = await import(pathToFileURL(path.join(dir, file)).href);
    for (const [name, value] of Object.entries(module))
      if (typeof value === 'function' && !found.has(value)) found.set(value, [`./${file}`, name]);
  }
  for (const [name, value] of Object.entries(z.util))
    if (typeof value === 'function') found.set(value, ['zod', name]);
  return found;
};

/**
 * zod's helpers the parser calls, written here: importing them through zod's `util` and `core`
 * namespaces would put every module of zod's core in the CLI bundle (400 KB more for `record` to
 * load). Each does what zod's does; test/events/compiled-report.test.ts holds the parser to zod.
 */
const ZOD_HELPERS = {
  /** a string's length in code points, a lone surrogate one (zod counts a `max` so) */
  codePointLength: '(s) => { let n = 0; for (const _ of s) n += 1; return n; }',
  /** a default's fresh copy: the defaults written here are JSON, so arrays and plain objects */
  shallowClone: '(o) => (Array.isArray(o) ? [...o] : { ...o })',
};

/** The body zod writes for `schema` and the value of every constant it names. */
const compiled = (schema) => {
  const RealFunction = globalThis.Function;
  let caught;
  globalThis.Function = new Proxy(RealFunction, {
    construct(target, args) {
      const factory = Reflect.construct(target, args);
      return (...values) => {
        caught = { names: args.slice(0, -1), body: args.at(-1), values };
        return factory(...values);
      };
    },
  });
  try {
    compileFn(schema);
  } finally {
    globalThis.Function = RealFunction;
  }
  if (caught === undefined) throw new Error("compile-report-parser: zod's compiler built no function");
  return caught;
};

const DEFAULT_GETTER = '() => schema._zod.def.defaultValue';

/** A constant as source, or a thrown error naming what this script cannot write. */
const sourceOf = (value, name, exported, imports) => {
  if (value instanceof Set && [...value].every((v) => typeof v === 'string'))
    return `new Set(${JSON.stringify([...value])})`;
  if (value instanceof RegExp) return value.toString();
  if (typeof value === 'function') {
    const from = exported.get(value);
    if (from?.[0] === 'zod') {
      if (ZOD_HELPERS[from[1]] === undefined)
        throw new Error(`compile-report-parser: zod's ${from[1]}, not written here`);
      return ZOD_HELPERS[from[1]];
    }
    if (from !== undefined) {
      imports.set(from[0], [...(imports.get(from[0]) ?? []), from[1]]);
      return from[1];
    }
    if (value.name === 'throwAsync' && value.length === 0) return '() => { throw new $ZodAsyncError(); }';
    if (String(value) === DEFAULT_GETTER) {
      const literal = JSON.stringify(value());
      if (!isDeepStrictEqual(JSON.parse(literal), value()))
        throw new Error(`compile-report-parser: ${name}, a default JSON cannot write`);
      return `() => (${literal})`;
    }
  }
  throw new Error(
    `compile-report-parser: constant ${name} (${String(value).slice(0, 80)}) is none this script writes; ` +
      "if zod's compiler left a part of ReportSchema to its runtime, the report's schema uses what it cannot compile",
  );
};

/** The module that replaces src/events/compiled-report.ts, compiled from the built fold's ReportSchema (`lib`). */
export const compiledReportModule = async (lib) => {
  const events = path.join(lib, 'events');
  const { ReportSchema } = await import(pathToFileURL(path.join(events, 'round-report.js')).href);
  const def = ReportSchema._zod.def;
  const { names, body, values } = compiled(def.type === 'lazy' ? def.getter() : ReportSchema);
  const exported = await exportsOf(events);
  const imports = new Map();
  const constants = names
    .map((name, i) =>
      name === 'INVALID' ? '' : `const ${name} = ${sourceOf(values[i], name, exported, imports)};`,
    )
    .filter((line) => line !== '');
  return [
    "// Generated by scripts/compile-report-parser.mjs from ReportSchema with zod's compiler: do not edit.",
    "import { $ZodAsyncError } from 'zod/v4/core';",
    ...[...imports].map(([from, fns]) => `import { ${[...new Set(fns)].sort().join(', ')} } from '${from}';`),
    "const INVALID = Symbol('invalid');",
    ...constants,
    `const parse = (input) => {\n${body.replace(/^return \(input\) => \{\n/, '').replace(/\n\}$/, '')}\n};`,
    'export const parseCompiledReport = (input) => {',
    '  const out = parse(input);',
    '  return out === INVALID ? undefined : out;',
    '};',
    '',
  ].join('\n');
};
