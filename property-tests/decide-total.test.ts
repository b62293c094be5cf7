import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect } from 'vitest';
import { isFinal } from '../src/index.js';
import { reachableRunArb, validRoundArb } from '../src/testing.js';
import { decideUntrusted } from '../test/support/decider.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

/** Any JSON value, with strings of any code points: lone surrogates included. */
const anyJson = fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 });

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const hasLoneSurrogate = (value: unknown): boolean =>
  typeof value === 'string'
    ? LONE_SURROGATE.test(value)
    : value !== null && typeof value === 'object'
      ? Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || hasLoneSurrogate(v))
      : false;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every place inside a value, as a path of keys. */
const pathsOf = (
  value: Json,
  at: ReadonlyArray<string | number> = [],
): Array<ReadonlyArray<string | number>> => {
  const inner =
    value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...at, Array.isArray(value) ? Number(k) : k]))
      : [];
  return [at, ...inner];
};

/** A copy of `value` with the place at `path` replaced by `by`. */
const replaceAt = (value: Json, path: ReadonlyArray<string | number>, by: Json): Json => {
  if (path.length === 0) return by;
  const [key, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === key ? replaceAt(v, rest, by) : v));
  if (value !== null && typeof value === 'object')
    return {
      ...value,
      [key as string]: replaceAt((value as Record<string, Json>)[key as string] as Json, rest, by),
    };
  return value;
};

const decideSafely = (state: Parameters<typeof decideUntrusted>[0], input: unknown, context = {}) => {
  try {
    return decideUntrusted(state, input, context);
  } catch (error) {
    throw new Error(`decide threw for ${JSON.stringify(input)?.slice(0, 300)}: ${String(error)}`);
  }
};

/** A reachable run that takes rounds, with a valid next round (its capture and report). */
const acceptingRun = reachableRunArb
  .filter((run) => run.state.run !== null && !isFinal(run.state.status))
  .chain((run) => validRoundArb(run.state).map((valid) => ({ run, valid })));

describe('decide is total: it returns Left, it never throws', () => {
  property([reachableRunArb, anyJson], { numRuns })(
    'for any JSON value against any reachable state',
    (run, input) => {
      const result = decideSafely(run.state, input);
      expect(E.isLeft(result)).toBe(true);
    },
  );

  property([acceptingRun, fc.nat(), anyJson], { numRuns })(
    'for a valid report with any one place replaced by any JSON value',
    ({ run, valid }, pick, replacement) => {
      const report = valid.report as unknown as Json;
      const places = pathsOf(report);
      const input = replaceAt(report, places[pick % places.length] ?? [], replacement as Json);
      const result = decideSafely(run.state, input, {
        capture: valid.capture,
        ...(valid.checks === undefined ? {} : { checks: valid.checks }),
        citations: valid.citations,
        result: valid.result,
      });
      if (hasLoneSurrogate(input)) expect(E.isLeft(result)).toBe(true);
    },
  );

  property(
    [
      acceptingRun,
      fc.nat(),
      fc.string({ unit: 'binary', minLength: 1 }),
      fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF'),
    ],
    { numRuns },
  )(
    'a lone surrogate in any free-text string of a valid report is refused as invalid-text',
    ({ run, valid }, pick, around, lone) => {
      const report = valid.report as unknown as Json;
      const strings = pathsOf(report).filter((p) => {
        let v: unknown = report;
        for (const k of p) v = (v as Record<string | number, unknown>)[k];
        // status and verdict are enums: any other word is refused as invalid-report already
        return typeof v === 'string' && !['status', 'verdict'].includes(String(p.at(-1)));
      });
      const place = strings[pick % strings.length] ?? [];
      const text = `${around.replace(/[\uD800-\uDFFF]/gu, '')}${lone}`;
      const input = replaceAt(report, place, text);
      const result = decideSafely(run.state, input, {
        capture: valid.capture,
        ...(valid.checks === undefined ? {} : { checks: valid.checks }),
        citations: valid.citations,
        result: valid.result,
      });
      expect(E.isLeft(result) && result.left.code, JSON.stringify(place)).toBe('invalid-text');
    },
  );
});
