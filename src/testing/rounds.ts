import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { roundRecorded } from '../events/build.js';
import { FAILURE_REASONS } from '../events/codecs/events-v1.js';
import type { CitationCheck, DomainEvent, RevisionCapturedData } from '../events/event.js';
import { findingId } from '../events/finding-id.js';
import { citationsRequired } from '../events/policy.js';
import {
  type Candidate,
  DECISION_STATUSES,
  type Decision,
  type DecisionStatus,
  type RoundReport,
  type Verdict,
} from '../events/report.js';
import { evolveAll } from '../projections/decide.js';
import { isFinal, type RunState } from '../projections/state.js';
import { citationOf } from '../projections/views/findings.js';

/** The small world generated reviews live in: few names, so ids and files collide often. */
export const FILES = ['src/a.ts', 'src/b.ts', 'lib/c.ts', 'docs/d.md'] as const;
const CATEGORIES = ['correctness', 'security', 'tests'] as const;
const SUMMARIES = [
  'Missing close',
  'Unchecked error',
  'Race on write',
  'Leaked handle',
  'Wrong bound',
  'Stale cache',
] as const;

/** The random choices one round is built from; `buildRound` maps them onto a state. */
export type RoundChoices = Readonly<{
  touched: ReadonlyArray<boolean>;
  rename: number | null;
  candidates: ReadonlyArray<
    Readonly<{
      file: number;
      line: number;
      category: number;
      summary: number;
      severity: number;
      bySection: boolean;
    }>
  >;
  statuses: ReadonlyArray<DecisionStatus>;
  decideUntouched: boolean;
  declareVerdict: boolean;
  notExamined: boolean;
  recaptured: boolean;
  failures: ReadonlyArray<(typeof FAILURE_REASONS)[number]>;
}>;

export const roundChoicesArb: fc.Arbitrary<RoundChoices> = fc.record({
  touched: fc.array(fc.boolean(), { minLength: FILES.length, maxLength: FILES.length }),
  rename: fc.option(fc.nat({ max: 7 }), { nil: null, freq: 4 }),
  candidates: fc.array(
    fc.record({
      file: fc.nat({ max: FILES.length - 1 }),
      line: fc.integer({ min: 1, max: 400 }),
      category: fc.nat({ max: CATEGORIES.length - 1 }),
      summary: fc.nat({ max: SUMMARIES.length - 1 }),
      severity: fc.nat({ max: 7 }),
      bySection: fc.boolean(),
    }),
    { maxLength: 6 },
  ),
  statuses: fc.array(fc.constantFrom(...DECISION_STATUSES), { minLength: 1, maxLength: 6 }),
  decideUntouched: fc.boolean(),
  declareVerdict: fc.boolean(),
  notExamined: fc.boolean(),
  recaptured: fc.boolean(),
  failures: fc.array(fc.constantFrom(...FAILURE_REASONS), { maxLength: 1 }),
});

const at = <T>(items: ReadonlyArray<T>, i: number): T => items[i % items.length] as T;

export type BuiltRound = Readonly<{
  capture: RevisionCapturedData;
  report: RoundReport;
  /** every candidate's citation, resolved, when the policy requires citations to resolve */
  citations?: ReadonlyArray<CitationCheck>;
  /** the verdict the round derives */
  status: Verdict;
}>;

/**
 * A valid capture and report for the next round of `state` (which must accept rounds), built from
 * random choices: every rule of `evolve` is honoured by construction, and the result is checked.
 */
export const buildRound = (state: RunState, choices: RoundChoices, inputTag = 'in'): BuiltRound => {
  const run = state.run;
  if (run === null || isFinal(state.status)) throw new Error('buildRound: the state accepts no round');
  const round = state.round + 1;
  const findings = Object.values(state.findings);
  const findingFiles = [...new Set(findings.map((f) => f.file))].sort();
  const renameFrom =
    choices.rename === null || findingFiles.length === 0 ? null : at(findingFiles, choices.rename);
  const renames = renameFrom === null ? [] : [{ from: renameFrom, to: `moved/r${round}/${renameFrom}` }];
  const touchedFiles = FILES.filter((_, i) => choices.touched[i] === true);
  const capture: RevisionCapturedData = { round, inputSha: `${inputTag}-${round}`, touchedFiles, renames };
  const touched = new Set([...touchedFiles, ...renames.map((r) => r.to)]);
  const fileNow = (file: string) => (file === renameFrom ? `moved/r${round}/${file}` : file);

  const severities = Object.keys(run.policy.severities);
  const candidates: Candidate[] = [];
  const ids = new Set<string>();
  for (const c of choices.candidates) {
    const file = at(FILES, c.file);
    // documents are cited by heading as often as by line
    const location =
      file.endsWith('.md') && c.bySection ? { section: `Heading ${c.line % 5}` } : { line: c.line };
    const candidate: Candidate = {
      file,
      ...location,
      category: at(CATEGORIES, c.category),
      summary: at(SUMMARIES, c.summary),
      severity: at(severities, c.severity),
      confirmed: true,
      evidence: `seen at ${file}:${c.line}`,
    };
    const id = findingId(candidate);
    if (ids.has(id) || state.findings[id] !== undefined) continue;
    ids.add(id);
    candidates.push(candidate);
  }

  const decisions: Decision[] = [];
  const allowedUntouched = run.policy.untouchedDecisions;
  for (const f of findings) {
    if (f.status !== 'open') continue;
    const status = at(choices.statuses, decisions.length);
    if (touched.has(fileNow(f.file)))
      decisions.push({ id: f.id, status, evidence: `round ${round}: ${status}` });
    else if (choices.decideUntouched && allowedUntouched.length > 0) {
      const allowed = at(allowedUntouched, decisions.length);
      decisions.push({ id: f.id, status: allowed, evidence: `round ${round}: ${allowed} without a touch` });
    }
  }

  const listsNotExamined = choices.notExamined || (run.policy.notExaminedRequired && candidates.length === 0);
  const report: RoundReport = {
    runId: run.runId,
    round,
    inputSha: capture.inputSha,
    completed: true,
    candidates,
    decisions,
    ...(listsNotExamined ? { notExamined: ['generated: the tests directory'] } : {}),
  };
  const citations = citationsRequired(run.policy)
    ? candidates.map((c, i) => ({
        candidate: i,
        citation: citationOf({ file: c.file, line: c.line ?? null, section: c.section ?? null }),
        resolved: true,
      }))
    : undefined;
  const after = evolveAll(state, [
    { type: 'revision.captured', data: capture },
    roundRecorded(report, citations),
  ]);
  if (E.isLeft(after))
    throw new Error(`buildRound built an invalid round: ${after.left.code}: ${after.left.message}`);
  const status = after.right.status as Verdict;
  return {
    capture,
    report: choices.declareVerdict ? { ...report, verdict: status } : report,
    ...(citations === undefined ? {} : { citations }),
    status,
  };
};

/** The events one round becomes: perhaps a superseded capture and a failed attempt, then the round. */
export const roundEvents = (state: RunState, choices: RoundChoices): ReadonlyArray<DomainEvent> => {
  const { capture, report, citations } = buildRound(state, choices);
  const events: DomainEvent[] = [];
  if (choices.recaptured)
    events.push({ type: 'revision.captured', data: { ...capture, inputSha: `stale-${capture.round}` } });
  events.push({ type: 'revision.captured', data: capture });
  for (const reason of choices.failures) {
    events.push({
      type: 'round.failed',
      data: { round: capture.round, inputSha: capture.inputSha, reason, detail: `generated ${reason}` },
    });
  }
  events.push(roundRecorded(report, citations));
  return events;
};

/** A valid next round (capture and report) for a state that accepts rounds. */
export const validRoundArb = (state: RunState): fc.Arbitrary<BuiltRound> =>
  roundChoicesArb.map((choices) => buildRound(state, choices, 'next'));
