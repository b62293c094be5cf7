import { REPORT_LIMITS } from './report-limits.js';
import { TEXT_CHECKS, type TextCheck } from './report-text.js';
import { CANDIDATE_VERDICTS, DECISION_STATUSES, VERDICTS } from './statuses.js';
import { isTokenCount } from './token-count.js';

/** Every check of a number besides its bounds, by the name the shape calls it. */
export const NUMBER_CHECKS = {
  'token-count': isTokenCount,
} as const satisfies Readonly<Record<string, (n: number) => boolean>>;
export type NumberCheck = keyof typeof NUMBER_CHECKS;

// The round report's zod schema (report.ts), written down as data, and a check of it that needs no
// zod. Building zod's schema graph and compiling its first parse cost a `record` a quarter of a
// bare Node start; a report that is well formed needs neither. `parseReport` takes this check's
// value when it accepts, and asks zod only when it does not, so every refusal, its code and its
// message, is still zod's. test/events/report-shape.test.ts derives this description from the zod
// schema itself and holds the check to zod's answer and value on generated reports.

/** One node of the report's shape: what zod's schema for it accepts and what it gives back. */
export type Shape =
  | Readonly<{ kind: 'string'; max?: number; checks: ReadonlyArray<TextCheck> }>
  | Readonly<{ kind: 'number'; min: number; max: number; checks: ReadonlyArray<NumberCheck> }>
  | Readonly<{ kind: 'boolean' }>
  | Readonly<{ kind: 'enum'; values: ReadonlyArray<string> }>
  | Readonly<{ kind: 'array'; max: number; element: Shape }>
  /** no key beyond `fields` (zod's `strictObject`); the value holds them in this order */
  | Readonly<{ kind: 'object'; fields: ReadonlyArray<readonly [string, Shape]> }>
  /** `undefined`, absent or present, is accepted as it came */
  | Readonly<{ kind: 'optional'; inner: Shape }>
  /** `undefined` becomes a new empty array */
  | Readonly<{ kind: 'default-empty'; inner: Shape }>;

const text = (max: number | undefined, ...checks: TextCheck[]): Shape =>
  max === undefined
    ? { kind: 'string', checks: ['well-formed', ...checks] }
    : { kind: 'string', max, checks: ['well-formed', ...checks] };
const number = (...checks: NumberCheck[]): Shape => ({
  kind: 'number',
  min: Number.MIN_SAFE_INTEGER,
  max: Number.MAX_SAFE_INTEGER,
  checks,
});
const safeNumber = number();
const boolean: Shape = { kind: 'boolean' };
const optional = (inner: Shape): Shape => ({ kind: 'optional', inner });
const oneOf = (values: ReadonlyArray<string>): Shape => ({ kind: 'enum', values });
const object = (...fields: Array<readonly [string, Shape]>): Shape => ({ kind: 'object', fields });
const array = (max: number, element: Shape): Shape => ({ kind: 'array', max, element });

const L = REPORT_LIMITS;

const CANDIDATE = object(
  ['file', text(L.file, 'candidate-file')],
  ['line', optional(safeNumber)],
  ['section', optional(text(L.section, 'one-line'))],
  ['category', text(L.category, 'one-line')],
  ['summary', text(L.summary, 'one-line')],
  ['severity', text(L.severity, 'one-line')],
  ['confirmed', optional(boolean)],
  ['verdict', optional(oneOf(CANDIDATE_VERDICTS))],
  ['introducedByDiff', optional(boolean)],
  ['sameAs', optional(text(L.findingId))],
  ['evidence', text(L.evidence)],
  ['principle', optional(text(L.principle))],
  ['reproduction', optional(object(['command', text(L.reproduction)], ['expected', text(L.reproduction)]))],
);

const DECISION = object(
  ['id', text(L.findingId)],
  ['status', oneOf(DECISION_STATUSES)],
  ['evidence', text(L.evidence)],
);

const VERIFICATION = object(
  ['file', text(L.file, 'repo-path')],
  ['category', text(L.category, 'one-line')],
  ['summary', text(L.summary, 'one-line')],
  ['verdict', oneOf(CANDIDATE_VERDICTS)],
  ['evidence', text(L.evidence)],
  ['severity', optional(text(L.severity, 'one-line'))],
  ['introducedByDiff', optional(boolean)],
  [
    'correction',
    optional(
      object(
        ['file', optional(text(L.file, 'repo-path'))],
        ['line', safeNumber],
        ['evidence', text(L.evidence)],
      ),
    ),
  ],
);

const COST = object(
  ['tokens', optional(number('token-count'))],
  ['usd', optional(safeNumber)],
  ['seconds', optional(safeNumber)],
);

/** `ReportSchema`, as data. */
export const REPORT_SHAPE: Shape = object(
  ['runId', text(L.runId)],
  ['round', safeNumber],
  ['inputSha', text(L.inputSha)],
  ['completed', boolean],
  ['candidates', { kind: 'default-empty', inner: array(L.candidates, CANDIDATE) }],
  ['decisions', { kind: 'default-empty', inner: array(L.decisions, DECISION) }],
  ['verifications', optional(array(L.candidates, VERIFICATION))],
  ['verdict', optional(oneOf(VERDICTS))],
  ['notExamined', optional(array(L.notExamined, text(L.notExaminedItem)))],
  // a name's length is part of its grammar (`actor-name`), so zod checks no length of its own
  ['reviewer', optional(text(undefined, 'actor-name'))],
  ['cost', optional(COST)],
);

const REFUSED: unique symbol = Symbol('refused');
type Checked = unknown;

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Length in code points, as zod counts a string against its `max`. */
const codePoints = (s: string): number => {
  if (!HIGH_SURROGATE.test(s)) return s.length;
  let count = s.length;
  for (let i = 0; i < s.length - 1; i += 1)
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count -= 1;
      i += 1;
    }
  return count;
};

/** What zod's schema for `shape` gives back for `value`, or REFUSED where it would refuse (or might: then zod says). */
const check = (shape: Shape, value: unknown): Checked | typeof REFUSED => {
  switch (shape.kind) {
    case 'string':
      if (typeof value !== 'string') return REFUSED;
      if (shape.max !== undefined && value.length > shape.max && codePoints(value) > shape.max)
        return REFUSED;
      return shape.checks.every((name) => TEXT_CHECKS[name](value)) ? value : REFUSED;
    case 'number':
      return typeof value === 'number' &&
        Number.isFinite(value) &&
        value >= shape.min &&
        value <= shape.max &&
        shape.checks.every((name) => NUMBER_CHECKS[name](value))
        ? value
        : REFUSED;
    case 'boolean':
      return typeof value === 'boolean' ? value : REFUSED;
    case 'enum':
      return typeof value === 'string' && shape.values.includes(value) ? value : REFUSED;
    case 'array': {
      if (!Array.isArray(value) || value.length > shape.max) return REFUSED;
      const items: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i += 1) {
        const item = check(shape.element, value[i]);
        if (item === REFUSED) return REFUSED;
        items[i] = item;
      }
      return items;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return REFUSED;
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, field] of shape.fields) {
        const given = input[key];
        if (field.kind === 'optional' && given === undefined) {
          if (key in input) out[key] = undefined;
          continue;
        }
        const got = field.kind === 'default-empty' && given === undefined ? [] : check(field, given);
        if (got === REFUSED) return REFUSED;
        out[key] = got;
      }
      // zod reads keys with for…in, so an inherited enumerable key is as unknown as an own one
      for (const key in input) if (!shape.fields.some(([k]) => k === key)) return REFUSED;
      return out;
    }
    case 'optional':
      return value === undefined ? undefined : check(shape.inner, value);
    case 'default-empty':
      return value === undefined ? [] : check(shape.inner, value);
  }
};

/**
 * The value zod's `ReportSchema` gives back for `input`, or `undefined` where this check cannot
 * vouch for it: zod then decides, and names what is wrong.
 */
export const checkReportShape = <Report>(input: unknown): Report | undefined => {
  const checked = check(REPORT_SHAPE, input);
  return checked === REFUSED ? undefined : (checked as Report);
};
