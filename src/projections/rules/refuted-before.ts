import type { RevisionCapturedData } from '../../events/event.js';
import { sha256Hex } from '../../events/sha256.js';
import { lookUp } from '../finding-index.js';
import { get, type PMap, set } from '../pmap.js';
import type { Finding, Refuted, RunState } from '../state.js';
import { at, last, pushAll, toArray, type Vec } from '../vec.js';
import type { Identified } from './candidates.js';
import type { Repeats } from './merge.js';

/**
 * A refuted finding stays refuted on unchanged code. A candidate with the id of one a verifier (or
 * its own report) refuted, or of a finding withdrawn, earlier in the run, in a file no capture has
 * touched since, is not admitted: it is kept on the record as refuted before, naming that round
 * and its evidence, unless its own evidence is new (none of the earlier evidence on that id,
 * trimmed, as a reopening must be: rules/decisions.ts). A file touched since, or new evidence, and
 * it is judged as any candidate is (a withdrawn finding's id stays `existing-finding`). Within one
 * round's contributions the merge decides as it always did; the rule reads the round it makes.
 *
 * What it reads is indexed, so a round costs what it offers: the places of an id's refuted records
 * (`refutedPlaces`), a withdrawn finding by id, and the last round that touched a file
 * (`touchedIn`), keyed by the SHA-256 of its name as the finding index keys files.
 */

/** The earlier refutation a candidate repeats: its round, how, and its evidence. */
export type Earlier = Readonly<{ round: number; how: 'refuted' | 'withdrawn'; evidence: string }>;

const fileKey = (file: string): string => sha256Hex(file);

/** The files a capture changed, renamed from included: a candidate there is on changed code. */
const changedBy = (capture: RevisionCapturedData): ReadonlyArray<string> => [
  ...capture.touchedFiles,
  ...capture.renames.flatMap((r) => [r.from, r.to]),
];

/** `touchedIn` once round `round`'s capture is reviewed: O(the files it changed). */
export const markTouched = (
  touchedIn: PMap<number>,
  capture: RevisionCapturedData,
  round: number,
): PMap<number> => {
  let next = touchedIn;
  for (const file of new Set(changedBy(capture))) next = set(next, fileKey(file), round);
  return next;
};

/** What an earlier record on the id says: the refutation it names (its own, or the one it repeated). */
const earlierOf = (r: Refuted): Earlier =>
  r.before === undefined
    ? { round: r.round, how: 'refuted', evidence: r.evidence }
    : { round: r.before.round, how: r.before.how, evidence: r.evidence };

/** The step that withdrew a finding (its last: a withdrawn finding takes no more decisions). */
const withdrawalOf = (f: Finding): Earlier | null => {
  const step = last(f.steps);
  return step === undefined || step.status !== 'withdrawn'
    ? null
    : { round: step.round, how: 'withdrawn', evidence: step.evidence ?? '' };
};

/**
 * The refutation `identified` repeats in round `capture.round`, or null when it does not: no earlier
 * refutation or withdrawal of its id, its file changed since (by this round's capture or one
 * reviewed after it), or evidence none of the earlier records gave. A candidate linked `sameAs`
 * opens nothing and one refuted again in this round is refuted anew: neither is asked.
 */
export const refutedBefore = (
  state: RunState,
  capture: RevisionCapturedData,
  { candidate: c, id }: Identified,
): Earlier | null => {
  if (c.sameAs !== undefined || c.verdict === 'refuted') return null;
  const records = (get(state.refutedPlaces, id) ?? []).map((place) => at(state.refuted, place) as Refuted);
  const finding = lookUp(state.findings, id);
  const withdrawn = finding?.status === 'withdrawn' ? withdrawalOf(finding) : null;
  const earlier = [...records.map(earlierOf), ...(withdrawn === null ? [] : [withdrawn])];
  if (earlier.length === 0) return null;
  const latest = earlier.reduce((a, b) => (b.round >= a.round ? b : a));
  if (changedBy(capture).includes(c.file) || (get(state.touchedIn, fileKey(c.file)) ?? 0) > latest.round)
    return null;
  const said = [
    ...records.flatMap((r) => [r.claim, r.evidence]),
    ...(finding === undefined || withdrawn === null
      ? []
      : [finding.evidence, ...toArray(finding.steps).flatMap((s) => s.evidence ?? [])]),
  ].map((e) => e.trim());
  return said.includes(c.evidence.trim()) ? latest : null;
};

/** The candidates the round in progress would keep as refuted before: what the merge keeps out of its groups. */
export const repeatsIn =
  (state: RunState): Repeats =>
  (candidate, id) =>
    state.capture !== null && refutedBefore(state, state.capture, { candidate, id, index: 0 }) !== null;

/** `refuted` and its index by id once a round's records are kept: O(the records). */
export const keepRefuted = (
  state: Pick<RunState, 'refuted' | 'refutedPlaces'>,
  records: ReadonlyArray<Refuted>,
): Readonly<{ refuted: Vec<Refuted>; refutedPlaces: PMap<ReadonlyArray<number>> }> => {
  let refutedPlaces = state.refutedPlaces;
  for (const [i, r] of records.entries())
    refutedPlaces = set(refutedPlaces, r.id, [...(get(refutedPlaces, r.id) ?? []), state.refuted.size + i]);
  return { refuted: pushAll(state.refuted, records), refutedPlaces };
};
