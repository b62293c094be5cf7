import * as E from '#either';
import { stepTo } from '../../events/next-step.js';
import type { Policy } from '../../events/policy.js';
import type { Decision } from '../../events/report-types.js';
import { type Findings, openIn } from '../finding-index.js';
import type { Finding } from '../state.js';
import { at, toArray } from '../vec.js';
import { namedFinding } from './finding-ref.js';
import { type Check, fail, isBlank, ok, shortId } from './rule-answer.js';

/**
 * A reopening says what is new: its evidence, trimmed, is none that an earlier decision or ruling
 * on the finding gave (`stale-evidence`), so a fix is not overturned by repeating what it answered.
 */
const reopeningCitesNewEvidence = (d: Decision, finding: Finding, i: number): Check => {
  const evidence = d.evidence.trim();
  for (const step of toArray(finding.steps)) {
    if (step.evidence !== undefined && step.evidence.trim() === evidence) {
      return fail(
        'stale-evidence',
        `decisions[${i}] reopens finding ${shortId(d.id)} with the evidence its round ${step.round} ${step.how === 'ruled' ? 'ruling' : 'decision'} gave: say what changed since (new evidence)`,
        ['decisions', i, 'evidence'],
      );
    }
  }
  return ok;
};

/**
 * A decision fits the finding it names: `reopened` only a `fixed` finding (the fix did not hold),
 * every other status only an `open` one. Asked of each contribution and of each round.
 */
export const decisionFitsFinding = (d: Decision, finding: Finding, i: number): Check => {
  const path = ['decisions', i, 'id'];
  if (d.status === 'reopened') {
    return finding.status === 'fixed'
      ? reopeningCitesNewEvidence(d, finding, i)
      : fail(
          'not-reopenable',
          `decisions[${i}] reopens finding ${shortId(d.id)}, which is ${finding.status}: only a fixed finding can be reopened${finding.status === 'open' ? ' (decide it open, fixed or withdrawn)' : ''}`,
          path,
        );
  }
  return finding.status === 'open'
    ? ok
    : fail(
        'closed-finding',
        `decisions[${i}] rules on finding ${shortId(d.id)}, which is already ${finding.status}: only open findings take decisions${finding.status === 'fixed' ? ' (if the fix did not hold, decide it reopened, with evidence)' : ''}`,
        path,
      );
};

/**
 * Decisions rule on open findings whose file was touched since the last reviewed input; at most
 * one each, with evidence. Every open finding in a touched file needs one, even if its line moved.
 * Findings in untouched files carry forward, and a decision on one is refused unless the policy
 * allows that status there (issueflow: `open` or `withdrawn`, never `fixed`), or the author
 * disputed it (`disputed`): then `open` upholds it and `withdrawn` accepts the dispute, untouched or
 * not (rules/disputes.ts). A `reopened` decision on a fixed finding is allowed wherever its file
 * is: a fix can be undone from elsewhere.
 * Only the open findings of the touched files are read (the index by file), never every finding.
 */
export const decisionsCoverTouched = (
  round: number,
  { runId, policy }: Readonly<{ runId: string; policy: Policy }>,
  findings: Findings,
  touched: ReadonlySet<string>,
  decisions: ReadonlyArray<Decision>,
  disputed: ReadonlySet<string> = new Set(),
): Check => {
  const decided = new Map<string, number>();
  for (const [i, d] of decisions.entries()) {
    const at = (field?: string) => (field === undefined ? ['decisions', i] : ['decisions', i, field]);
    const twin = decided.get(d.id);
    if (twin !== undefined) {
      return fail(
        'duplicate-decision',
        `decisions[${i}] rules again on finding ${shortId(d.id)} (already decisions[${twin}]): one decision per finding`,
        at('id'),
      );
    }
    decided.set(d.id, i);
    const named = namedFinding(findings, d.id, `decisions[${i}].id`, at('id'));
    if (E.isLeft(named)) return named;
    const finding = named.right;
    const fits = decisionFitsFinding(d, finding, i);
    if (E.isLeft(fits)) return fits;
    if (isBlank(d.evidence)) {
      return fail(
        'empty-evidence',
        `decisions[${i}].evidence is empty: say what changed or why it stands`,
        at('evidence'),
      );
    }
    if (
      d.status !== 'reopened' &&
      !touched.has(finding.file) &&
      !policy.untouchedDecisions.includes(d.status) &&
      !(disputed.has(d.id) && (d.status === 'open' || d.status === 'withdrawn'))
    ) {
      const allowed =
        policy.untouchedDecisions.length === 0 ? 'none' : policy.untouchedDecisions.join(' or ');
      return fail(
        'untouched-decision',
        `decisions[${i}] says ${d.status} for finding ${shortId(d.id)} in ${finding.file}, which was not touched since the last reviewed input (policy ${policy.name} allows: ${allowed})`,
        at('status'),
      );
    }
  }
  // the first undecided one in the order findings opened, as a scan of every finding would name it
  let first: number | undefined;
  for (const file of touched) {
    for (const { key: id, value: place } of openIn(findings, file)) {
      if (!decided.has(id) && (first === undefined || place < first)) first = place;
    }
  }
  if (first === undefined) return ok;
  const missing = at(findings.inOrder, first) as Finding;
  return fail(
    'missing-decision',
    `round ${round} report has no decision for finding ${shortId(missing.id)} (${missing.file}): every open finding in a touched file needs one`,
    ['decisions'],
    undefined,
    stepTo('record', runId),
  );
};
