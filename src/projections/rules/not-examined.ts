import type { Policy } from '../../events/policy.js';
import type { RoundReport } from '../../events/report-types.js';
import { type Check, fail, isBlank, ok } from './rule-answer.js';

/** Under a policy that asks for it, a report that found nothing must say what it did not examine. */
export const emptyReportSaysWhatItSkipped = (policy: Policy, report: RoundReport): Check => {
  if (!policy.notExaminedRequired || report.candidates.length > 0) return ok;
  const listed = (report.notExamined ?? []).filter((line) => !isBlank(line));
  return listed.length > 0
    ? ok
    : fail(
        'missing-not-examined',
        `a report with no candidates must list what was not examined (notExamined) under policy ${policy.name}`,
        ['notExamined'],
      );
};
