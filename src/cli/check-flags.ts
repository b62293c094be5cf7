import type { CheckState } from '@clearance/fold/internal/events/event.js';
import { quoted } from '@clearance/fold/internal/events/quoted.js';
import { ClearanceError } from '../errors.js';

/** A check as the `checks` operation takes it. */
export type GivenCheck = Readonly<{ name: string; state: CheckState; url?: string }>;

/**
 * `--check NAME=STATE` and `--url URL` in the order they were given: each `--url` is the link of
 * the `--check` just before it. A name may hold `=`, the state is the word after the last one.
 */
export const checksFromFlags = (given: ReadonlyArray<readonly ['check' | 'url', string]>): GivenCheck[] => {
  const checks: GivenCheck[] = [];
  for (const [flag, value] of given) {
    if (flag === 'url') {
      const before = checks.at(-1);
      if (before === undefined)
        throw new ClearanceError(
          'usage',
          '--url goes after the --check whose link it is: --check test=failed --url https://…',
        );
      if (before.url !== undefined)
        throw new ClearanceError(
          'usage',
          `check ${quoted(before.name)} has two --url: give one link for each --check, right after it`,
        );
      checks[checks.length - 1] = { ...before, url: value };
      continue;
    }
    const at = value.lastIndexOf('=');
    const state = value.slice(at + 1);
    if (at <= 0 || !(state === 'passed' || state === 'failed' || state === 'skipped'))
      throw new ClearanceError(
        'usage',
        `--check ${quoted(value)}: expected NAME=passed, NAME=failed or NAME=skipped`,
      );
    checks.push({ name: value.slice(0, at), state });
  }
  return checks;
};
