import { formatPath } from '@clearance/fold/internal/events/rejection.js';
import { type ParseErrorCode, printParseErrorCode, visit } from 'jsonc-parser';

/**
 * The deepest nesting of arrays and objects accepted. A report is four levels deep and a policy
 * three; the bound keeps every recursive reader after this one (schemas, canonical JSON) far from
 * the stack's end, whatever the input.
 */
export const MAX_JSON_DEPTH = 64;

export type StrictJson =
  | Readonly<{ ok: true; value: unknown }>
  /**
   * `syntax`: not JSON at all; `inexact`: JSON that would not be read as sent. `path`: where in the
   * document (`candidates[2].line`); `offset`: the UTF-16 offset in the text.
   */
  | Readonly<{ ok: false; kind: 'syntax' | 'inexact'; message: string; path?: string; offset?: number }>;

class Refused extends Error {
  constructor(
    message: string,
    readonly path: string | undefined,
    readonly offset: number,
    readonly kind: 'syntax' | 'inexact' = 'inexact',
  ) {
    super(message);
  }
}

// In unicode mode a paired surrogate is one code point, so only a lone one matches.
const LONE_SURROGATE = /\p{Cs}/u;

const loneSurrogate = (text: string, path: string, offset: number): Refused =>
  new Refused(
    `${text.length > 40 ? 'a string' : JSON.stringify(text)} holds a lone surrogate (a \\uD800-\\uDFFF escape without its pair): no UTF-8 text can carry it`,
    path,
    offset,
  );

const where = (path: ReadonlyArray<string | number>): string => {
  const shown = formatPath(path);
  return shown === '' ? 'the document' : shown;
};

/**
 * Parse JSON text exactly as it was sent, or say why not. `JSON.parse` alone would keep the last
 * of two equal keys, turn `9007199254740993` into `…992` and `1e400` into Infinity, all silently.
 *
 * jsonc-parser (Microsoft's, the parser behind VS Code's JSON support) walks the text first, with
 * comments and trailing commas refused: its visitor sees every key of every object, so a duplicate
 * is found and named, and every number's own text, so an integer JSON cannot carry exactly is
 * refused; a string holding a lone surrogate (`"\uD800"`) is refused as no UTF-8 can carry it; nesting deeper than `MAX_JSON_DEPTH` stops the walk before anything recurses further.
 * `JSON.parse` then builds the value (V8's parser: fast, and the last word on RFC 8259 syntax).
 */
/** Where `offset` is, as a person counts: line and column from 1. */
const placeOf = (text: string, offset: number): string => {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
};

/** What a JSON parser's error code means, in words, and where: not the parser's own names. */
const syntaxWords = (text: string, code: ParseErrorCode, offset: number): string => {
  const name = printParseErrorCode(code);
  // past the last character, or a string or number the text ends inside of: it stops too soon
  if (offset >= text.trimEnd().length || name === 'UnexpectedEndOfString')
    return `unexpected end of the text at ${placeOf(text, Math.min(offset, text.length))}: it stops before the JSON value is complete (cut short?)`;
  const at = placeOf(text, offset);
  const found = JSON.stringify(text.slice(offset, offset + 1));
  switch (name) {
    case 'InvalidSymbol':
    case 'InvalidCharacter':
      return `unexpected ${found} at ${at}`;
    case 'PropertyNameExpected':
      return `a property name in double quotes was expected at ${at}, not ${found}`;
    case 'ValueExpected':
      return `a value was expected at ${at}, not ${found}`;
    case 'ColonExpected':
      return `":" was expected after the property name at ${at}, not ${found}`;
    case 'CommaExpected':
      return `"," was expected at ${at}, not ${found}`;
    case 'CloseBraceExpected':
      return `"}" was expected at ${at}, not ${found}`;
    case 'CloseBracketExpected':
      return `"]" was expected at ${at}, not ${found}`;
    case 'EndOfFileExpected':
      return `there is more after the JSON value, at ${at}: one file holds one value`;
    case 'InvalidNumberFormat':
      return `a number is malformed at ${at}`;
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return `a string holds an escape JSON does not have, at ${at}`;
    default:
      return `${name} at ${at}`;
  }
};

export const parseStrictJson = (text: string): StrictJson => {
  const objects: Set<string>[] = [];
  let depth = 0;
  const enter = (offset: number) => {
    depth += 1;
    if (depth > MAX_JSON_DEPTH) {
      // the path would be as long as the nesting: the offset says where instead
      throw new Refused(
        `nesting deeper than ${MAX_JSON_DEPTH} levels at offset ${offset}`,
        undefined,
        offset,
      );
    }
  };
  try {
    visit(
      text,
      {
        onObjectBegin: (offset) => {
          enter(offset);
          objects.push(new Set());
        },
        onObjectEnd: () => {
          depth -= 1;
          objects.pop();
        },
        onArrayBegin: (offset) => enter(offset),
        onArrayEnd: () => {
          depth -= 1;
        },
        onObjectProperty: (key, offset, _length, _line, _column, pathOf) => {
          if (LONE_SURROGATE.test(key)) throw loneSurrogate(key, where([...pathOf(), key]), offset);
          const keys = objects[objects.length - 1];
          if (keys === undefined) return;
          if (keys.has(key)) {
            throw new Refused(
              `duplicate key ${JSON.stringify(key)}: a key may appear once in an object`,
              where([...pathOf(), key]),
              offset,
            );
          }
          keys.add(key);
        },
        onLiteralValue: (value: unknown, offset, length, _line, _column, pathOf) => {
          if (typeof value === 'string' && LONE_SURROGATE.test(value)) {
            throw loneSurrogate(value, where(pathOf()), offset);
          }
          if (typeof value !== 'number') return;
          const raw = text.slice(offset, offset + length);
          if (!Number.isFinite(value)) {
            throw new Refused(`the number ${raw} is too large for JSON to carry`, where(pathOf()), offset);
          }
          if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
            throw new Refused(
              `the integer ${raw} is not a safe integer (at most ${Number.MAX_SAFE_INTEGER} in magnitude): it would be read as ${value}`,
              where(pathOf()),
              offset,
            );
          }
        },
        onError: (code, offset) => {
          throw new Refused(`not JSON: ${syntaxWords(text, code, offset)}`, undefined, offset, 'syntax');
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch (e) {
    if (e instanceof Refused) {
      return {
        ok: false,
        kind: e.kind,
        message: e.path === undefined ? e.message : `${e.path}: ${e.message}`,
        ...(e.path === undefined ? {} : { path: e.path }),
        offset: e.offset,
      };
    }
    throw e;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, kind: 'syntax', message: `not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
};
