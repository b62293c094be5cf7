import type { CheckResult } from '@clearance/fold/internal/events/event.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { ChecksResult } from '../operations/checks.js';

const listed = (list: ReadonlyArray<CheckResult>): string =>
  list.map((c) => `${t(c.name)}${c.url === undefined ? '' : ` (${t(c.url)})`}`).join(', ');

/** What was recorded and what it did to the round, for a person. */
export const checksText = (runId: string, r: ChecksResult): string => {
  const again = r.alreadyRecorded ? 'already recorded: ' : '';
  const each = r.checks.map((c) => `${t(c.name)} ${c.state}`).join(', ') || 'no checks';
  const head = `${again}${r.checks.length} check(s) on round ${r.round}'s input ${t(r.inputSha.slice(0, 12))}: ${each}`;
  const noted =
    r.noted.length === 0
      ? ''
      : `\noptional check(s) failed, noted (they never end a round): ${listed(r.noted)}`;
  if (r.result === 'ci_failed')
    return `${head}${noted}\nround ${r.round} ended ci_failed: ${t(r.reason ?? listed(r.failed))}\nthat is the author's feedback (clearance feedback ${t(runId)}); capture the fix for round ${r.round + 1}`;
  const goesOn =
    r.required.length === 0
      ? "the run's policy requires no checks: kept for the record"
      : `every required check passed (${r.required.map(t).join(', ')}): the round goes on to its report`;
  return `${head}${noted}\n${goesOn}`;
};
