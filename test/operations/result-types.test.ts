import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import type { ReviewStatementSchema } from '../../src/operations/schemas/attestation.js';
import type { ReviewStatement } from '../../src/render/attestation.js';

/**
 * Every operation's result type is its `--json` schema's (`ResultOf`, src/operations/schemas/results.ts),
 * so none can drift from what `clearance schema output` publishes. One type is still written twice:
 * the review statement `attest` signs is built in src/render, a layer below the schemas that
 * describe it, so it cannot be inferred from them. This holds the two together.
 */

/** Every level read-only: the statement is built from views it never copies. */
type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Compiles only when `Built` is assignable to `Published`: the check is the typecheck's. */
const fits = <Built, Published>(_assign: (built: Built) => Published): boolean => true;

describe('the review statement fits its published schema', () => {
  it('type-checks (tsc, which CI runs over test/, fails on a statement that does not fit)', () => {
    expect(fits<ReviewStatement, DeepReadonly<z.output<typeof ReviewStatementSchema>>>((r) => r)).toBe(true);
  });
});
