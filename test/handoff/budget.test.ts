import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClearanceError } from '../../src/errors.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_POLL_MS,
  DEFAULT_TIMEOUT_MS,
  resolveBudget,
  waitForReport,
} from '../../src/handoff/index.js';
import { EXPECTED } from './support/reports.js';
import { useTempDir } from './support/temp-dir.js';

describe('the budget of a wait', () => {
  const dir = useTempDir();

  it('defaults to ten minutes, a 250 ms poll and 4 MiB, with the watch on', () => {
    expect([DEFAULT_TIMEOUT_MS, DEFAULT_POLL_MS, DEFAULT_MAX_BYTES]).toEqual([600_000, 250, 4 * 1024 * 1024]);
    expect(resolveBudget()).toEqual({
      timeoutMs: DEFAULT_TIMEOUT_MS,
      pollMs: DEFAULT_POLL_MS,
      maxBytes: DEFAULT_MAX_BYTES,
      watch: true,
      signal: undefined,
    });
    expect(resolveBudget({ timeoutMs: 1, pollMs: 1, maxBytes: 1, watch: false })).toMatchObject({
      timeoutMs: 1,
      pollMs: 1,
      maxBytes: 1,
      watch: false,
    });
  });

  const options = ['timeoutMs', 'pollMs', 'maxBytes'] as const;
  const invalid = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY];

  describe.each(options)('%s', (option) => {
    it.each(invalid)(`refuses ${option} = %s before reading anything`, async (value) => {
      // The report is never published: a wait that started despite the bad budget would end in a
      // timeout, never in invalid-budget.
      const wait = waitForReport(join(dir(), 'report.json'), EXPECTED, { timeoutMs: 1, [option]: value });
      const error = await wait.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ClearanceError);
      const refusal = error as ClearanceError;
      expect(refusal.code).toBe('invalid-budget');
      expect(refusal.message).toContain(`${option} must be a positive integer`);
      expect(refusal.message).toContain(`got ${String(value)}`);
      expect(refusal.details).toMatchObject({ option, value: String(value) });
    });
  });

  it('refuses a poll interval setTimeout cannot honour (above 2^31 - 1 ms)', () => {
    expect(() => resolveBudget({ pollMs: 2 ** 31 })).toThrow(
      /pollMs must be a positive integer no greater than 2147483647/,
    );
  });
});
