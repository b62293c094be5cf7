import * as t from 'io-ts';
import { PolicyCodecV1 } from './policy-v1.js';
import { ReportCodecV1 } from './report-codecs.js';

/** Version 1 of every event's `data`, as docs/design.md "Events (v1)" defines it. Never edit: add a v2. */

export const RunOpenedV1 = t.type({
  runId: t.string,
  policy: PolicyCodecV1,
  subject: t.partial({ repo: t.string, artifact: t.string }),
  consent: t.intersection([t.type({ by: t.string }), t.partial({ commands: t.array(t.string) })]),
});

export const Rename = t.type({ from: t.string, to: t.string });

export const RevisionCapturedV1 = t.intersection([
  t.type({
    round: t.number,
    inputSha: t.string,
    touchedFiles: t.array(t.string),
    renames: t.array(Rename),
  }),
  t.partial({
    commit: t.string,
    /** the tree the input binds to: the commit's, or with a dirty work tree the working files' */
    tree: t.string,
    dirty: t.boolean,
    artifactSha: t.string,
    base: t.string,
  }),
]);

export const CitationCheck = t.intersection([
  t.type({ candidate: t.number, citation: t.string, resolved: t.boolean }),
  t.partial({ reason: t.string }),
]);

export const RoundRecordedV1 = t.intersection([
  t.type({
    round: t.number,
    inputSha: t.string,
    reportSha: t.string,
    report: ReportCodecV1,
  }),
  /** how each candidate's citation resolved at the captured revision, when it was checked */
  t.partial({ citations: t.array(CitationCheck) }),
]);

export const FAILURE_REASONS = ['timeout', 'incomplete', 'malformed', 'oversized'] as const;

export const RoundFailedV1 = t.type({
  round: t.number,
  inputSha: t.string,
  reason: t.keyof({ timeout: null, incomplete: null, malformed: null, oversized: null }),
  detail: t.string,
});
