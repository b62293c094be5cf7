import { findingOf, findingsInOrder } from '../projections/finding-index.js';
import type { Finding, FindingStep, RunState } from '../projections/state.js';
import { toArray } from '../projections/vec.js';
import { type DeferredView, deferredOf } from '../projections/views/deferred.js';
import { historyOf } from '../projections/views/finding-history.js';
import { findingView, placeRecordOf } from '../projections/views/findings.js';
import { levelOf } from './level.js';
import { type RunHistory, stateAtRound } from './run-history.js';
import { deferredCause } from './trend-text.js';

/**
 * SARIF 2.1.0 for code scanning: one result per finding of the run as it stood at the end of a
 * round, compared with the round before it.
 *
 * - `ruleId` is the finding's category; `level` comes from blocking and severity (`levelOf`).
 * - `partialFingerprints["clearanceFindingId/v1"]` is the finding id, which never changes when the
 *   line moves or the file is renamed, so code scanning tracks the alert as clearance does.
 * - `baselineState` against the previous round: `new` (opened this round), `absent` (fixed: no
 *   longer detected; emitted with kind `pass`), `updated` (decided, ruled, moved or changed status
 *   this round) or `unchanged` (carried forward as it was).
 * - A withdrawn finding, and any finding a person ruled on, carries a `suppression` with the
 *   justification and who decided (the ruling's person, or whoever appended the round's report).
 *   SARIF's suppression object holds only kind, status, location, justification, guid and
 *   properties (§3.35), so who decided, the decision, its round and how it was made sit in its
 *   `properties`.
 * - A candidate deferred to a follow-up is a result too, of level `note`, its property bag saying
 *   `status: deferred`, the round that deferred it and why (`deferredResultOf`).
 * - The location is where the finding is in the round's input: its cited line followed through
 *   each capture's diff (docs/glossary.md "Outdated"); where its reviewer cited it is kept in
 *   `properties.cited`, and `properties.outdated` says the cited line was deleted or rewritten.
 * - `artifactLocation.uri` is the finding's file as a relative URI reference (§3.4.3, §3.10: RFC 3986,
 *   non-ASCII characters percent-encoded as UTF-8): each path segment percent-encoded, so a space,
 *   `%`, `#`, `?` or a non-ASCII name stays part of the path instead of being refused by the schema
 *   or read as a query or fragment.
 */

export const SARIF_VERSION = '2.1.0';
/**
 * Where the OASIS Standard's own schema (SARIF 2.1.0 with errata 01) is published, and its `id`.
 * The tests check every log with the reference validator, Microsoft's SARIF Multitool
 * (test/render/sarif-validator.ts): the standard's schema and its rules.
 */
export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const FINGERPRINT_KEY = 'clearanceFindingId/v1';
/** Where a reader learns what clearance is (§3.19.17): its home page, as package.json names it. */
export const TOOL_INFORMATION_URI = 'https://github.com/clearance-dev/clearance';

type Json = Readonly<Record<string, unknown>>;

export type SarifOptions = Readonly<{ round: number; toolVersion: string }>;

type BaselineState = 'new' | 'unchanged' | 'updated' | 'absent';

/** A person's ruling on the finding, if any: a ruling is final, so there is at most one. */
const rulingOf = (f: Finding): FindingStep | undefined => toArray(f.steps).find((s) => s.how === 'ruled');

/** Fixed by a round's decision: the reviewer no longer finds it (a ruling is a suppression instead). */
const fixedByReview = (f: Finding): boolean => f.status === 'fixed' && rulingOf(f) === undefined;

const baselineStateOf = (f: Finding, before: Finding | undefined, round: number): BaselineState => {
  if (before === undefined) return 'new';
  if (fixedByReview(f)) return 'absent';
  const touched = toArray(f.steps).some(
    (s) => s.round === round && (s.how === 'decided' || s.how === 'ruled'),
  );
  const changed =
    touched ||
    before.status !== f.status ||
    before.file !== f.file ||
    before.line !== f.line ||
    before.section !== f.section;
  return changed ? 'updated' : 'unchanged';
};

/** Who decided a withdrawal or a ruling, and why: the last step that set the finding's status. */
const suppressionOf = (f: Finding, history: RunHistory): Json | null => {
  const step =
    rulingOf(f) ??
    (f.status === 'withdrawn'
      ? toArray(f.steps).find((s) => s.how === 'decided' && s.status === 'withdrawn')
      : undefined);
  if (step === undefined) return null;
  const decidedBy =
    step.how === 'ruled' ? (step.by ?? 'unknown') : (history.recordedBy[step.round] ?? 'unknown');
  return {
    kind: 'external',
    status: 'accepted',
    justification: step.evidence ?? '',
    properties: {
      decidedBy,
      decision: step.status,
      round: step.round,
      how: step.how === 'ruled' ? 'ruling' : 'round decision',
    },
  };
};

// A lone surrogate has no UTF-8 form, and encodeURIComponent throws on one: it becomes U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A repository-relative POSIX path as a relative URI reference: `/` separates, all else is data. */
export const artifactUri = (file: string): string =>
  file
    .split('/')
    .map((segment) => encodeURIComponent(segment.replace(LONE_SURROGATE, '\uFFFD')))
    .join('/');

const locationOf = (f: Readonly<{ file: string; line: number | null; section: string | null }>): Json => ({
  physicalLocation: {
    artifactLocation: { uri: artifactUri(f.file) },
    ...(f.line === null ? {} : { region: { startLine: f.line } }),
  },
  ...(f.section === null ? {} : { logicalLocations: [{ name: f.section, kind: 'section' }] }),
});

const resultOf = (
  state: RunState,
  before: RunState,
  f: Finding,
  history: RunHistory,
  round: number,
  ruleIndex: number,
): Json => {
  const policy = state.run?.policy;
  const view = findingView(f, state);
  const fixed = fixedByReview(f);
  const suppression = suppressionOf(f, history);
  return {
    ruleId: f.category,
    ruleIndex,
    kind: fixed ? 'pass' : 'fail',
    level: fixed || policy === undefined ? 'none' : levelOf(policy, view),
    message: { text: f.section === null ? f.summary : `${f.summary} (§ ${f.section})` },
    // where the finding is in the input the round reviewed (the log's `commit`): its cited line
    // followed its code; not the view's place, which a capture for the next round may have moved
    locations: [locationOf(f)],
    partialFingerprints: { [FINGERPRINT_KEY]: f.id },
    baselineState: baselineStateOf(f, findingOf(before, f.id), round),
    ...(suppression === null ? {} : { suppressions: [suppression] }),
    properties: {
      findingId: f.id,
      severity: f.severity,
      blocking: f.blocking,
      status: f.status,
      openedRound: f.openedRound,
      ...placeRecordOf(f),
      evidence: f.evidence,
      ...(f.principle === null ? {} : { principle: f.principle }),
      ...(f.reproduction === null ? {} : { reproduction: f.reproduction }),
      history: historyOf(state, f),
      // a property bag's tags are unique (§3.8.2.1): a severity may itself be named `blocking`
      tags: [...new Set([f.severity, f.blocking ? 'blocking' : 'advisory'])],
    },
  };
};

/**
 * A candidate deferred to a follow-up: a `note`, never blocking, `new` in the round that deferred it
 * and `unchanged` after. Its fingerprint is its candidate id, so a follow-up that takes it up keeps
 * the alert; its properties say it was deferred and why.
 */
const deferredResultOf = (d: DeferredView, round: number, ruleIndex: number): Json => ({
  ruleId: d.category,
  ruleIndex,
  kind: 'fail',
  level: 'note',
  message: {
    text: `${d.section === null ? d.summary : `${d.summary} (§ ${d.section})`} (deferred to a follow-up: ${deferredCause(d, (s) => s)})`,
  },
  locations: [locationOf(d)],
  partialFingerprints: { [FINGERPRINT_KEY]: d.id },
  baselineState: d.round === round ? 'new' : 'unchanged',
  properties: {
    candidateId: d.id,
    severity: d.severity,
    blocking: false,
    status: 'deferred',
    deferred: { round: d.round, reason: d.reason, untilRound: d.untilRound },
    evidence: d.evidence,
    reviewers: d.reviewers,
    tags: [...new Set([d.severity, 'deferred'])],
  },
});

/** The SARIF log of round `options.round` (callers check that the round ended). */
export const sarifLog = (history: RunHistory, options: SarifOptions): Json => {
  const { round } = options;
  const state = stateAtRound(history, round);
  const before = stateAtRound(history, round - 1);
  const findings = findingsInOrder(state);
  const deferred = deferredOf(state);
  const categories = [...new Set([...findings, ...deferred].map((f) => f.category))].sort();
  const runId = state.run?.runId ?? '?';
  return {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: 'clearance',
            version: options.toolVersion,
            informationUri: TOOL_INFORMATION_URI,
            // fullDescription and help: what GitHub code scanning shows beside an alert (GH2012)
            rules: categories.map((category) => ({
              id: category,
              shortDescription: { text: `review findings of category ${category}` },
              fullDescription: {
                text: `Findings of category ${category} that reviewers reported in run ${runId}: each result is one finding, tracked across rounds by its finding id.`,
              },
              help: {
                text: `clearance findings ${runId} lists every finding with its history; clearance explain ${runId} says why the run stands where it does.`,
              },
            })),
          },
        },
        automationDetails: { id: `${runId}/round-${round}` },
        results: [
          ...findings.map((f) => resultOf(state, before, f, history, round, categories.indexOf(f.category))),
          ...deferred.map((d) => deferredResultOf(d, round, categories.indexOf(d.category))),
        ],
        properties: {
          runId,
          round,
          status: state.status,
          policy: state.run?.policy.name ?? null,
          inputSha: state.reviewed?.inputSha ?? null,
          ...(state.reviewed?.commit === undefined ? {} : { commit: state.reviewed.commit }),
        },
      },
    ],
  };
};
