import * as E from '#either';
import type {
  ChecksRecordedData,
  CitationCheck,
  DomainEvent,
  RevisionCapturedData,
  RoundResult,
} from '../events/event.js';
import { findingId } from '../events/finding-id.js';
import type { Rejection, RejectionCode } from '../events/rejection.js';
import type { Candidate, Decision, RoundReport } from '../events/report-types.js';
import { OPEN_FINDING_DECISIONS, parseReport } from '../events/round-report.js';
import { findingOf, findingsInOrder } from '../projections/finding-index.js';
import { touchedBy } from '../projections/rules/capture.js';
import type { RunState } from '../projections/state.js';
import { decideAndApply, evolveEach } from './decide.js';
import type { BuiltRound } from './rounds.js';

/** Something offered to a run: a report (with the capture it reviewed), or raw events. */
export type Offer =
  | Readonly<{
      kind: 'report';
      report: unknown;
      capture?: RevisionCapturedData;
      /** the capture's CI checks, recorded in the same step, under a policy that requires them */
      checks?: ChecksRecordedData;
      citations?: ReadonlyArray<CitationCheck>;
      result?: RoundResult;
    }>
  | Readonly<{ kind: 'events'; events: ReadonlyArray<DomainEvent> }>
  /** `record --merge`: close the round in progress from its contributions */
  | Readonly<{ kind: 'merge' }>;

/**
 * Offer it: a report is parsed with the report schema first (mutations break its shape too), then
 * decided; a merge is decided; events go straight to `evolve`.
 */
export const offerTo = (state: RunState, offer: Offer): E.Either<Rejection, RunState> => {
  switch (offer.kind) {
    case 'report': {
      const context = {
        ...(offer.capture === undefined ? {} : { capture: offer.capture }),
        ...(offer.checks === undefined ? {} : { checks: offer.checks }),
        ...(offer.citations === undefined ? {} : { citations: offer.citations }),
        ...(offer.result === undefined ? {} : { result: offer.result }),
      };
      return E.map((d: { state: RunState }) => d.state)(
        E.chain((report: RoundReport) => decideAndApply(state, { kind: 'record', report, context }))(
          parseReport(offer.report),
        ),
      );
    }
    case 'merge':
      return E.map((d: { state: RunState }) => d.state)(decideAndApply(state, { kind: 'merge' }));
    case 'events':
      return evolveEach(state, offer.events);
  }
};

export type Context = Readonly<{ state: RunState; valid: BuiltRound | null }>;

/** One way to break a valid offer, and the rejection code it must produce. */
export type Mutation = Readonly<{
  code: RejectionCode;
  name: string;
  applies: (ctx: Context) => boolean;
  apply: (ctx: Context, pick: number) => Offer;
}>;

export const accepting = (ctx: Context): ctx is Context & { valid: BuiltRound } => ctx.valid !== null;

/** The valid round's CI checks, for an offer: none under a policy that requires none. */
export const checksOf = (valid: BuiltRound): { checks?: ChecksRecordedData } =>
  valid.checks === undefined ? {} : { checks: valid.checks };

/** The valid round's capture as events, with its CI checks when the policy requires them. */
export const capturedEvents = (valid: BuiltRound): DomainEvent[] => [
  { type: 'revision.captured', data: valid.capture },
  ...(valid.checks === undefined ? [] : [{ type: 'checks.recorded' as const, data: valid.checks }]),
];
export const withReport = (ctx: Context, change: (r: RoundReport) => unknown): Offer => {
  if (ctx.valid === null) throw new Error('mutation applied to a state that accepts no round');
  return {
    kind: 'report',
    report: change(ctx.valid.report),
    capture: ctx.valid.capture,
    ...checksOf(ctx.valid),
    citations: ctx.valid.citations,
    result: ctx.valid.result,
  };
};
export const pickOf = <T>(items: ReadonlyArray<T>, pick: number): T => items[pick % items.length] as T;

/** A candidate that is new to the run and valid under its policy, for mutations that need one. */
export const someCandidate = (
  ctx: Context & { valid: BuiltRound },
): { report: RoundReport; index: number } => {
  const { report } = ctx.valid;
  if (report.candidates.length > 0) return { report, index: 0 };
  const severity = Object.keys(ctx.state.run?.policy.severities ?? {})[0] ?? 'major';
  const fresh: Candidate = {
    file: 'fresh/new.ts',
    line: 1,
    category: 'fresh',
    summary: 'a brand-new finding',
    severity,
    confirmed: true,
    evidence: 'seen',
  };
  return { report: { ...report, candidates: [fresh] }, index: 0 };
};
export const changeCandidate = (ctx: Context, change: (c: Candidate) => unknown): Offer => {
  if (!accepting(ctx)) throw new Error('mutation applied to a state that accepts no round');
  const { report, index } = someCandidate(ctx);
  return {
    kind: 'report',
    report: { ...report, candidates: report.candidates.map((c, i) => (i === index ? change(c) : c)) },
    capture: ctx.valid.capture,
    ...checksOf(ctx.valid),
    citations: ctx.valid.citations,
    result: ctx.valid.result,
  };
};

export { touchedBy };
export const fileAfter = (capture: RevisionCapturedData, file: string) =>
  capture.renames.find((r) => r.from === file)?.to ?? file;

export const untouchedOpen = (ctx: Context) => {
  if (!accepting(ctx)) return [];
  const touched = touchedBy(ctx.valid.capture);
  const decided = new Set(ctx.valid.report.decisions.map((d) => d.id));
  return findingsInOrder(ctx.state).filter(
    (f) => f.status === 'open' && !touched.has(fileAfter(ctx.valid.capture, f.file)) && !decided.has(f.id),
  );
};
export const forbiddenUntouched = (ctx: Context) =>
  OPEN_FINDING_DECISIONS.filter((s) => !(ctx.state.run?.policy.untouchedDecisions ?? []).includes(s));
export const touchedDecisions = (ctx: Context): ReadonlyArray<Decision> => {
  if (!accepting(ctx)) return [];
  const touched = touchedBy(ctx.valid.capture);
  return ctx.valid.report.decisions.filter((d) => {
    const f = findingOf(ctx.state, d.id);
    // a reopening is not a decision the round owes: only open findings need one
    return f !== undefined && f.status === 'open' && touched.has(fileAfter(ctx.valid.capture, f.file));
  });
};
export const unrenamed = (ctx: Context) => findingsInOrder(ctx.state).filter((f) => findingId(f) === f.id);
export const closed = (ctx: Context) => findingsInOrder(ctx.state).filter((f) => f.status !== 'open');
export const nextCapture = (state: RunState): RevisionCapturedData => ({
  round: state.round + 1,
  inputSha: 'x',
  touchedFiles: [],
  renames: [],
});
export const plausibleReport = (state: RunState) => ({
  runId: state.run?.runId ?? 'r',
  round: state.round + 1,
  inputSha: 'x',
  completed: true,
});
