import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import { parseReport } from '@clearance/fold/internal/events/round-report.js';
import * as E from 'fp-ts/lib/Either.js';
import { parseStrictJson } from '../input/strict-json.js';
import { decodeUtf8 } from '../input/utf8.js';

/** What a wait is waiting for: the report of this run's round, for the input captured for it. */
export type ExpectedReport = Readonly<{ runId: string; round: number; inputSha: string }>;

/** The binding fields as found in a file, whatever their types. */
export type SeenBinding = Readonly<{ runId: unknown; round: unknown; inputSha: unknown }>;

/** What one complete read of the report file means for the wait. */
export type Judgement =
  | Readonly<{ kind: 'accept'; report: RoundReport }>
  /** a report of another run, round or input: not an answer, waiting goes on */
  | Readonly<{ kind: 'ignore'; seen: SeenBinding }>
  | Readonly<{ kind: 'fail'; code: 'incomplete' | 'malformed'; reason: string }>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const describeNonObject = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;

/**
 * Judge the bytes of the report file against what is expected. Pure: no I/O, no clock.
 *
 * The order is the protocol. Bytes that are not JSON, or JSON that is not an object, fail: nothing
 * can be bound to them, and a cooperating producer publishes by rename, so a reader never sees a
 * half-written file; one only appears when someone writes the path in place, which breaks the
 * protocol, and the wait says so rather than guessing whose it was. An object is then bound on
 * `runId`, `round` and `inputSha` (strict equality) before anything else is checked: if they do not
 * all match, it is someone else's report (a stale round, another run, an older input) and is
 * ignored however broken the rest of it is. Only a matching report can fail as `incomplete`
 * (`completed !== true`) or as `malformed` for failing the report schema.
 */
export const judgeReport = (bytes: Uint8Array, expected: ExpectedReport): Judgement => {
  const text = decodeUtf8(bytes);
  if (!text.ok) {
    return {
      kind: 'fail',
      code: 'malformed',
      reason: `it is not UTF-8 text (the bytes at offset ${text.offset} are not a UTF-8 sequence)`,
    };
  }
  const json = parseStrictJson(text.text);
  if (!json.ok) {
    const reason =
      json.kind === 'syntax' ? `it is ${json.message}` : `its JSON is not exact: ${json.message}`;
    return { kind: 'fail', code: 'malformed', reason };
  }
  const value = json.value;
  if (!isObject(value)) {
    return {
      kind: 'fail',
      code: 'malformed',
      reason: `it holds ${describeNonObject(value)}, not a report object`,
    };
  }
  const seen: SeenBinding = { runId: value.runId, round: value.round, inputSha: value.inputSha };
  if (seen.runId !== expected.runId || seen.round !== expected.round || seen.inputSha !== expected.inputSha) {
    return { kind: 'ignore', seen };
  }
  if (value.completed !== true) {
    return {
      kind: 'fail',
      code: 'incomplete',
      reason: `the matching report is not complete (completed is ${JSON.stringify(value.completed) ?? 'missing'})`,
    };
  }
  const parsed = parseReport(value);
  if (E.isLeft(parsed)) {
    return {
      kind: 'fail',
      code: 'malformed',
      reason: `the matching report failed the report schema: ${parsed.left.message}`,
    };
  }
  return { kind: 'accept', report: parsed.right };
};
