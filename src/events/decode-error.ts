import type * as t from 'io-ts';

/** Why a stored line could not be decoded: the failing path and what was expected there. */
export type DecodeError = Readonly<{ path: string; message: string }>;

const isCompositeMember = (entry: t.ContextEntry | undefined): boolean => {
  const tag = (entry?.type as { _tag?: string } | undefined)?._tag;
  return tag === 'IntersectionType' || tag === 'UnionType';
};

const pathOf = (context: t.Context): string =>
  context
    .filter((_entry, i) => i > 0 && !isCompositeMember(context[i - 1]))
    .map((entry) => entry.key)
    .join('.');

const preview = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** The first io-ts error, named by its path: `data.report.candidates.0.line: expected number, got "7"`. */
export const describeErrors = (errors: t.Errors, prefix = ''): DecodeError => {
  const first = errors[0];
  if (first === undefined) return { path: prefix, message: 'does not decode' };
  const inner = pathOf(first.context);
  const path = [prefix, inner].filter((p) => p !== '').join('.');
  const expected = first.context[first.context.length - 1]?.type.name ?? 'a value';
  return {
    path,
    message: first.message ?? `${path || 'value'}: expected ${expected}, got ${preview(first.value)}`,
  };
};
