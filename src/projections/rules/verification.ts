import { findingId } from '../../events/finding-id.js';
import { blocksFor, type Policy, plausibleOf, preExistingSeverityOf } from '../../events/policy.js';
import type { Assessment, Candidate, Verification } from '../../events/report-types.js';
// the list from statuses.ts, not through report.ts: that would load zod into every command that folds
import { ASSESSMENTS } from '../../events/statuses.js';
import type { Place } from '../state.js';

/**
 * What assessments mean. A candidate is `confirmed: true` (the seed's form) or carries an
 * assessment (in its field `verdict`, the stored spelling); a verifier's contribution rules on other contributions' candidates by their key (file,
 * category, summary), and the merge applies each ruling to every matching candidate. Refuted is
 * dropped (kept on the record with its evidence); plausible counts like confirmed and blocks as
 * the policy says; a candidate the diff did not introduce takes the policy's pre-existing severity.
 */

/** A verifier's ruling, with who made it. */
export type Ruled = Readonly<{ by: string; ruling: Verification }>;

/** A candidate's own assessment: the seed's `confirmed: true` is assessed confirmed. */
export const ownAssessmentOf = (c: Candidate): Assessment => c.verdict ?? 'confirmed';

const rank = (v: Assessment): number => ASSESSMENTS.indexOf(v);

/**
 * The assessment several rulings on one candidate come to: the strongest. Any verifier that
 * confirms keeps the finding, because an approval is the expensive mistake.
 */
export const strongestAssessment = (assessments: ReadonlyArray<Assessment>): Assessment =>
  assessments.reduce<Assessment>((best, v) => (rank(v) > rank(best) ? v : best), 'refuted');

/** Rulings by the id of the candidate they name, in the merge's order. */
export const rulingsById = (rulings: ReadonlyArray<Ruled>): ReadonlyMap<string, ReadonlyArray<Ruled>> => {
  const byId = new Map<string, Ruled[]>();
  for (const r of rulings) {
    const id = findingId(r.ruling);
    byId.set(id, [...(byId.get(id) ?? []), r]);
  }
  return byId;
};

/**
 * A candidate as the rulings on its finding leave it: the strongest assessment; the severity
 * of the first of those rulings that blocks, else of the first that grades it; whether the diff
 * introduced it, `true` if any of them says so. `confirmed` gives way to the assessment.
 */
export const asRuled = (policy: Policy, c: Candidate, rulings: ReadonlyArray<Ruled>): Candidate => {
  const assessment = strongestAssessment(rulings.map((r) => r.ruling.verdict));
  const winning = rulings.filter((r) => r.ruling.verdict === assessment).map((r) => r.ruling);
  const graded = winning.filter((r) => r.severity !== undefined);
  const severity =
    (graded.find((r) => blocksFor(policy, r.severity as string, c.category)) ?? graded[0])?.severity ??
    c.severity;
  const said = winning.filter((r) => r.introducedByDiff !== undefined).map((r) => r.introducedByDiff);
  const introducedByDiff = said.length === 0 ? c.introducedByDiff : said.includes(true);
  const { confirmed: _seedForm, ...rest } = c;
  return {
    ...rest,
    severity,
    verdict: assessment,
    ...(introducedByDiff === undefined ? {} : { introducedByDiff }),
  };
};

/** Where a verifier placed a candidate its finder cited elsewhere: the place, who, why, and the finder's place. */
export type Placement = Readonly<{
  file: string;
  line: number;
  by: string;
  evidence: string;
  /** where its finder cited it, kept on the record */
  cited: Place;
}>;

/**
 * The place the rulings that decide a candidate give it: the first of them, in the merge's order,
 * that corrects it (a correction on a ruling the strongest assessment outvoted does not count), and
 * none when it names the place the finder gave.
 */
export const placementOf = (c: Candidate, rulings: ReadonlyArray<Ruled>): Placement | undefined => {
  const assessment = strongestAssessment(rulings.map((r) => r.ruling.verdict));
  const placing = rulings.find((r) => r.ruling.verdict === assessment && r.ruling.correction !== undefined);
  const correction = placing?.ruling.correction;
  if (placing === undefined || correction === undefined) return undefined;
  const file = correction.file ?? c.file;
  if (file === c.file && correction.line === c.line) return undefined;
  return {
    file,
    line: correction.line,
    by: placing.by,
    evidence: correction.evidence,
    cited: { file: c.file, line: c.line ?? null },
  };
};

/**
 * A candidate where a verifier placed it: admission and the finding read that place. Its id stays
 * the one its finder's place gave it (`findingId` of file, category, summary), as the merge has it.
 */
export const atPlacement = (c: Candidate, placement: Placement | undefined): Candidate =>
  placement === undefined ? c : { ...c, file: placement.file, line: placement.line };

/** What a finding opened at a verifier's place keeps of it: where its finder cited it, and who placed it and why. */
export const placedRecord = (
  placement: Placement | undefined,
): Readonly<{ cited?: Place; correction?: Readonly<{ by: string; evidence: string }> }> =>
  placement === undefined
    ? {}
    : { cited: placement.cited, correction: { by: placement.by, evidence: placement.evidence } };

/** The severity a candidate is admitted with: the policy's pre-existing one when the diff did not introduce it. */
export const admittedSeverity = (policy: Policy, c: Candidate): string => {
  const preExisting = preExistingSeverityOf(policy);
  return c.introducedByDiff === false && preExisting !== null ? preExisting : c.severity;
};

/**
 * Whether a plausible candidate is kept from blocking: never under `blocks` (the default), always
 * under `advisory`, and under `advisory-outside-fix` from round 2 in a file the last fix (this
 * round's capture) did not touch.
 */
export const plausibleIsAdvisory = (
  policy: Policy,
  round: number,
  c: Candidate,
  touched: (file: string) => boolean,
): boolean => {
  if (c.verdict !== 'plausible') return false;
  const rule = plausibleOf(policy);
  if (rule === 'advisory') return true;
  return rule === 'advisory-outside-fix' && round >= 2 && !touched(c.file);
};
