import type { Cost } from './policy.js';
import { formatPath, type Path, type Rejection, rejection } from './rejection.js';

/**
 * A cost's `tokens` (a report's cost, a stage's cost or estimate, a policy's budget) counts
 * tokens, so it is a whole number >= 0; `usd` and `seconds` may be fractional. Checked where a cost
 * comes in, never in the fold: a log written before this check may hold `tokens: 1.5`, and it
 * replays as it always did (the rule `costIsReal` asks only that an amount be finite and >= 0).
 */
export const isTokenCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** Why `n` is no token count, and the fix, after the field's name. */
export const tokenCountText = (n: number): string => {
  const fix = Number.isFinite(n) && n > 0 ? ` (round it to ${Math.round(n)})` : '';
  return `tokens are counted in whole numbers >= 0, got ${n}${fix}`;
};

/**
 * A cost whose `tokens` is no token count, refused `code` with a message naming `what` and the
 * field; `undefined` when it is one, or absent.
 */
export const tokenCountRejection = (
  cost: Cost,
  what: string,
  path: Path,
  code: 'invalid-cost' | 'invalid-policy' = 'invalid-cost',
): Rejection | undefined => {
  const n = cost.tokens;
  if (n === undefined || isTokenCount(n)) return undefined;
  const at = [...path, 'tokens'];
  return rejection(code, `invalid ${what}: ${formatPath(at)}: ${tokenCountText(n)}`, at);
};
