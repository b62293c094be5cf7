import { citationOf } from '../projections/citation.js';
import type { Place } from '../projections/state.js';

/** What a view holds of where a finding was cited (`placeRecordOf`, projections/views/findings.ts). */
export type PlaceRecord = Readonly<{
  section?: string | null;
  cited?: Place;
  outdated?: true;
  correction?: Readonly<{ by: string; evidence: string }>;
}>;

/**
 * Where a finding was cited, in words, when it stands elsewhere now: `placed by` the verifier who
 * corrected its place, `cited at` the place its reviewer gave, `outdated` when the cited line was
 * deleted or rewritten. Empty when it is where it was cited. `withEvidence`: the first line of the
 * verifier's evidence too, for a page that has room for it. The values are a reviewer's: each sink
 * encodes the phrases as it encodes any text from the log.
 */
export const placeNotes = (f: PlaceRecord, withEvidence = false): string[] => {
  const cited = f.cited === undefined ? null : citationOf({ ...f.cited, section: f.section ?? null });
  const why =
    withEvidence && f.correction !== undefined ? `: ${f.correction.evidence.split('\n')[0] ?? ''}` : '';
  return [
    ...(f.correction === undefined ? [] : [`placed by ${f.correction.by}${why}`]),
    ...(cited === null ? [] : [`cited at ${cited}`]),
    ...(f.outdated === true ? ['outdated: the cited line was deleted or rewritten since'] : []),
  ];
};
