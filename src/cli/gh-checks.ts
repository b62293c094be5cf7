import type { CheckState } from '@clearance/fold/internal/events/event.js';
import { quoted } from '@clearance/fold/internal/events/quoted.js';
import { describeIssues } from '@clearance/fold/internal/events/schema-issues.js';
import * as z from 'zod';
import { ClearanceError } from '../errors.js';

import type { GivenCheck } from './check-flags.js';

/**
 * How `gh pr checks --json` names a check's state (a check run's conclusion or status, a commit
 * status's state), and what each is here. NEUTRAL counts as passed, as GitHub Actions treats it
 * for dependent jobs; STALE (GitHub gave up on it) and every other ending that is not a success
 * or a skip count as failed. A state that is not an ending (still queued, running, waiting for
 * approval or expected to report) is none: the checks have not finished.
 */
const GH_STATES: Readonly<Record<string, CheckState | 'pending'>> = {
  SUCCESS: 'passed',
  NEUTRAL: 'passed',
  SKIPPED: 'skipped',
  FAILURE: 'failed',
  ERROR: 'failed',
  CANCELLED: 'failed',
  TIMED_OUT: 'failed',
  ACTION_REQUIRED: 'failed',
  STARTUP_FAILURE: 'failed',
  STALE: 'failed',
  PENDING: 'pending',
  QUEUED: 'pending',
  IN_PROGRESS: 'pending',
  WAITING: 'pending',
  REQUESTED: 'pending',
  EXPECTED: 'pending',
};

/**
 * One element of what `gh pr checks --json name,state,link` prints. The other fields gh can add
 * (`--json bucket,workflow,…`) are allowed and not read; any other key is refused, so a misspelt
 * `linkk` is named rather than dropped.
 */
const GhCheck = z.strictObject({
  name: z.string(),
  state: z.string(),
  link: z.string().optional(),
  bucket: z.unknown().optional(),
  completedAt: z.unknown().optional(),
  description: z.unknown().optional(),
  event: z.unknown().optional(),
  startedAt: z.unknown().optional(),
  workflow: z.unknown().optional(),
});

/**
 * The checks in a parsed `gh pr checks --json name,state,link` array. A check that has not
 * finished refuses the whole record (usage): run it again when CI is done, `gh pr checks --watch`
 * waits for that. gh prints an empty link for a check without one.
 */
export const checksFromGh = (value: unknown, source: string): GivenCheck[] => {
  const parsed = z.array(GhCheck).safeParse(value, { reportInput: true });
  if (!parsed.success) {
    const issue = describeIssues(parsed.error.issues, 'list of checks');
    throw new ClearanceError(
      'usage',
      `${source} is not what gh pr checks --json name,state,link prints: ${issue.text}`,
      { path: issue.path },
    );
  }
  const pending: string[] = [];
  const checks = parsed.data.map((c, i): GivenCheck | undefined => {
    const state = Object.hasOwn(GH_STATES, c.state) ? GH_STATES[c.state] : undefined;
    if (state === undefined)
      throw new ClearanceError(
        'usage',
        `${source}: check ${i + 1} (${quoted(c.name)}) has the state ${quoted(c.state)}, which gh does not print: expected one of ${Object.keys(GH_STATES).join(', ')}`,
        { path: [i, 'state'] },
      );
    if (state === 'pending') {
      pending.push(`${quoted(c.name)} (${c.state})`);
      return undefined;
    }
    return c.link === undefined || c.link === ''
      ? { name: c.name, state }
      : { name: c.name, state, url: c.link };
  });
  if (pending.length > 0)
    throw new ClearanceError(
      'usage',
      `the checks have not finished: ${pending.join(', ')}; run it again when they have (gh pr checks --watch waits for them)`,
      { pending: pending.length },
    );
  return checks.filter((c): c is GivenCheck => c !== undefined);
};
