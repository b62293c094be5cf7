import * as z from 'zod';
import {
  BlockedReason,
  Capture,
  Cost,
  Deferred,
  DeferredView,
  DisputeView,
  Extension,
  FindingStatus,
  FindingStep,
  FindingView,
  MergedFrom,
  NextStep,
  Panel,
  PlaceRecord,
  Rejection,
  Rename,
  RoundOutcome,
  Ruling,
  RunStatus,
  Seq,
  Sha,
  Stall,
  Suppressed,
} from './parts.js';

/**
 * What each command prints under `--json` when it succeeds: `{"ok":true, …}`. A failure is always
 * the one envelope in `parts.ts` (`Failure`). These are the contracts `clearance schema output`
 * prints and the MCP tools declare as their outputSchema: one definition for both.
 */

/** Every level read-only: an operation hands out the views it built, never copies of them. */
type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * What an operation returns: its command's `--json` success shape as the schema says it, without
 * the `ok` the door adds. Each operation's result type is this of its schema, so the type and the
 * published contract cannot drift apart.
 */
export type ResultOf<S extends z.ZodType> = DeepReadonly<Omit<z.output<S>, 'ok'>>;

const ok = z.literal(true);
const RunId = z.string().describe('the run id');
const TornTail = z
  .strictObject({ offset: z.number().int(), bytes: z.number().int() })
  .describe('an unterminated last line (a crash mid-append), set aside and repaired by the next append');

export const OpenOutput = z.strictObject({
  ok,
  runId: RunId,
  policy: z.string(),
  maxRounds: z.number().int(),
  seq: Seq,
  subject: z.strictObject({ repo: z.string().optional(), artifact: z.string().optional() }),
  capture: Capture.nullable().describe("round 1's input, when open captured it"),
  store: z.string().describe('where the run is kept: a directory, or a database (never its credentials)'),
});

export const CaptureOutput = z.strictObject({
  ok,
  runId: RunId,
  seq: Seq.nullable().describe('null when the capture was already recorded'),
  alreadyRecorded: z
    .boolean()
    .describe('the very capture already waits for the next round: nothing was appended'),
  round: z.number().int().describe('the round this input is for'),
  capture: Capture,
});

export const PublishOutput = z.strictObject({
  ok,
  path: z.string(),
  runId: RunId,
  round: z.number().int(),
  inputSha: Sha,
  completed: z.boolean(),
});

export const WaitOutput = z.strictObject({
  ok,
  path: z.string(),
  report: z
    .record(z.string(), z.unknown())
    .describe('the report as published (not yet checked: record checks it)'),
  bytes: z.number().int(),
  waitedMs: z.number(),
});

export const StageOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int(),
  stage: z.string(),
  event: z.enum(['stage.started', 'stage.finished', 'stage.failed']),
  seq: Seq.nullable(),
  outputSha: Sha.nullable().optional().describe('stage.finished: the archived output'),
  cost: Cost.optional().describe('stage.finished and stage.failed: what the stage spent'),
  spent: Cost.optional().describe("stage.finished: the run's spending so far"),
  reason: z.string().optional().describe('stage.failed: why (the stage runs again)'),
});

export const RecordOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int().describe('the last round that ended'),
  result: z
    .enum(['complete', 'partial', 'none', 'ci_failed'])
    .nullable()
    .describe('how that round ended (null: no round has ended yet)'),
  reason: z.string().nullable().describe('why it ended without a complete report, when it did'),
  status: RunStatus,
  seq: Seq.nullable(),
  opened: z.array(Sha).describe('findings this round opened'),
  openedFindings: z
    .array(z.strictObject({ id: Sha, severity: z.string(), citation: z.string(), summary: z.string() }))
    .describe('the findings this round opened, each with its severity, citation and summary'),
  changed: z.array(z.strictObject({ id: Sha, from: z.string(), to: z.string() })),
  suppressed: z.array(Suppressed),
  deferred: z.array(Deferred).describe('candidates this round deferred to a follow-up'),
  refutedBefore: z
    .array(
      z.strictObject({
        id: Sha,
        severity: z.string(),
        citation: z.string(),
        summary: z.string(),
        before: z.strictObject({ round: z.number().int(), how: z.enum(['refuted', 'withdrawn']) }),
        evidence: z.string().describe('the evidence of that earlier refutation or withdrawal'),
      }),
    )
    .describe(
      'candidates this round kept as refuted before: offered again, word for word, on a file no capture touched since the round that refuted (or withdrew) them',
    ),
  disputesRuled: z
    .array(
      z.strictObject({
        id: Sha,
        status: FindingStatus.describe('open: the dispute upheld; withdrawn: accepted; fixed: moot'),
      }),
    )
    .describe("the author's disputes this round ruled on"),
  note: z
    .string()
    .nullable()
    .describe('what the round was made of (a merge, an absent reviewer) or why it ended, in a line'),
  repairedTail: TornTail.nullable(),
  alreadyRecorded: z
    .boolean()
    .describe('this very report was already recorded for its round: nothing was appended'),
  final: z
    .strictObject({ why: z.string(), next: NextStep })
    .nullable()
    .describe('when the round made the run final: why, and what can still happen'),
});

const Counts = z.strictObject({
  open: z.number().int(),
  openBlocking: z.number().int(),
  fixed: z.number().int(),
  withdrawn: z.number().int(),
  suppressed: z.number().int(),
  deferred: z.number().int().describe('candidates deferred to a follow-up'),
});

const SameInputCount = z
  .strictObject({
    rounds: z.number().int(),
    allowed: z.number().int(),
    each: z
      .array(z.strictObject({ round: z.number().int(), reason: z.string() }))
      .describe('each such round, and why it reviewed the same bytes again'),
  })
  .describe('rounds that reviewed unchanged input as a recorded choice, and how many the policy allows');

const RoundRows = z
  .array(RoundOutcome.extend({ spent: Cost.describe("what the round's stages spent") }))
  .describe('every ended round: how it ended, what it did to the findings (tally), what it spent');

const TrendValue = z
  .enum(['early', 'converging', 'flat', 'diverging'])
  .nullable()
  .describe(
    'advisory, never the verdict: from the blocking findings open after each round (docs/loop.md#the-trend); null before any round ended',
  );

export const StatusRunOutput = z.strictObject({
  ok,
  runId: RunId.nullable(),
  status: RunStatus,
  blockedReason: BlockedReason,
  stall: Stall,
  policy: z.string().nullable(),
  round: z.number().int().describe('the last round that ended'),
  maxRounds: z.number().int().nullable(),
  inputSha: Sha.nullable(),
  captured: z.boolean(),
  counts: Counts,
  findings: z.array(FindingView),
  failedAttempts: z.number().int(),
  lastFailure: z.strictObject({ round: z.number().int(), reason: z.string(), detail: z.string() }).nullable(),
  inProgress: z
    .strictObject({
      round: z.number().int(),
      phase: z.enum(['queued', 'running']),
      finished: z.array(z.string()),
      running: z.string().nullable(),
    })
    .nullable(),
  sameInput: SameInputCount,
  rounds: RoundRows,
  trend: TrendValue,
  spent: Cost,
  panels: z.array(Panel).describe('each round closed from contributions, or with an absent reviewer'),
  contributions: Panel.describe(
    'the round in progress so far: each contribution handed in, and who was recorded absent',
  ),
  seq: Seq,
  tornTail: TornTail.nullable(),
});

export const StatusListOutput = z.strictObject({
  ok,
  store: z.string().describe('where the runs are kept: a directory, or a database'),
  runs: z.array(
    z.strictObject({
      runId: RunId,
      status: z.enum([...RunStatus.options, 'damaged']),
      round: z.number().int().nullable(),
      maxRounds: z.number().int().nullable(),
    }),
  ),
});

export const FindingsOutput = z.strictObject({ ok, runId: RunId, findings: z.array(FindingView) });

export const ReplayOutput = z.strictObject({
  ok,
  runId: RunId,
  status: RunStatus,
  round: z.number().int(),
  events: z.array(
    z.looseObject({
      seq: Seq,
      type: z.string(),
      round: z.number().int().nullable(),
      status: RunStatus,
      at: z.string(),
      by: z.string(),
    }),
  ),
});

export const ExplainOutput = z.strictObject({
  ok,
  runId: RunId,
  status: RunStatus,
  headline: z.string(),
  blockedReason: BlockedReason,
  stall: Stall,
  blocking: z.array(
    z.strictObject({
      id: Sha,
      file: z.string(),
      line: z.number().int().nullable(),
      citation: z.string(),
      ...PlaceRecord,
      severity: z.string(),
      summary: z.string(),
      openedRound: z.number().int(),
      keptOpen: z.array(FindingStep),
      reviewers: z
        .array(z.string())
        .describe('who proposed it, when its round was merged from contributions'),
      corroboration: z.number().int().describe('how many reviewers proposed it'),
      mergedFrom: z.array(MergedFrom).describe('the candidates the merge folded into it'),
    }),
  ),
  advisoryOpen: z.number().int(),
  incomplete: z.array(RoundOutcome),
  rulings: z.array(Ruling),
  extensions: z.array(Extension),
  convergedBy: z.string().nullable(),
  panels: z
    .array(Panel)
    .describe(
      'each round closed from contributions, or with an absent reviewer: who reviewed, who was absent',
    ),
  merges: z
    .array(
      z.strictObject({
        id: Sha,
        citation: z.string(),
        severity: z.string(),
        status: FindingStatus,
        blocking: z.boolean(),
        openedRound: z.number().int(),
        reviewers: z.array(z.string()),
        corroboration: z.number().int().describe('how many reviewers proposed it'),
        mergedFrom: z.array(MergedFrom),
      }),
    )
    .describe('every finding, whatever its status, a merge made from several candidates or reviewers'),
  refuted: z
    .array(z.looseObject({}))
    .describe(
      "refuted candidates: dropped, never findings, with who refuted them and their evidence (evidence), the candidate's own (claim); one with before ({round, how: refuted or withdrawn}) was offered again on a file no capture touched since, with nothing new, and kept as refuted before",
    ),
  disputes: z
    .array(DisputeView)
    .describe("every dispute of the run: the finding, the author's reason, and how it was ruled on"),
  reruns: z
    .array(
      z.strictObject({
        round: z.number().int(),
        inputSha: z.string(),
        findingId: Sha,
        outcome: z.enum(['still-fails', 'no-longer-fails']),
        outputSha: Sha.nullable(),
      }),
    )
    .describe('every reproduction re-run at the start of a re-review, and what it did'),
  deferred: z
    .array(DeferredView)
    .describe('candidates deferred to a follow-up, in the order their rounds deferred them'),
  rounds: RoundRows,
  trend: TrendValue,
  sameInput: SameInputCount,
});

export const FeedbackOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int(),
  status: RunStatus,
  markdown: z.string().describe('the feedback for the author, as Markdown'),
});

export const GateOutput = z.strictObject({
  ok,
  runId: RunId,
  approved: z.literal(true).describe('a refused gate is a failure (exit 1), never approved: false'),
  inputSha: Sha,
  boundBy: z
    .enum(['commit', 'tree', 'working-tree', 'artifact', 'patch'])
    .describe('patch: HEAD is not the reviewed commit, but makes the same patch against --base'),
  byPatch: z
    .strictObject({
      commit: Sha.describe('the commit approved: HEAD'),
      reviewed: Sha.describe('the commit the run reviewed'),
      base: Sha.describe('the commit --base named'),
      patchId: Sha.describe('the patch id both share (git patch-id --verbatim)'),
    })
    .optional()
    .describe('with boundBy patch: which commit was reviewed, and the patch HEAD shares with it'),
  message: z.string(),
  attestation: z
    .strictObject({ commit: Sha, ref: z.string(), keyid: z.string() })
    .optional()
    .describe('with --attest: the git note the signed attestation was written as'),
});

const ReproductionToRun = z.strictObject({
  findingId: Sha,
  citation: z.string(),
  summary: z.string(),
  status: z.enum(['open', 'fixed']),
  command: z.string(),
  expected: z.string(),
  outcome: z
    .enum(['still-fails', 'no-longer-fails'])
    .nullable()
    .describe('what it did when re-run on the captured input; null before that (clearance reproduce)'),
});

export const NextOutput = z.strictObject({
  ok,
  runId: RunId,
  action: z.enum([
    'open',
    'capture',
    'record-checks',
    'rerun-reproductions',
    'run-stage',
    'end-partial',
    'wait-report',
    'stop',
  ]),
  why: z.string(),
  round: z.number().int().optional(),
  stage: z.string().optional(),
  attempt: z.number().int().optional(),
  resume: z.boolean().optional(),
  inputSha: Sha.optional(),
  result: z.enum(['complete', 'partial']).optional(),
  status: RunStatus.optional(),
  reproductions: z
    .array(ReproductionToRun)
    .optional()
    .describe('rerun-reproductions: the ones not yet re-run on the captured input'),
  required: z
    .array(z.string())
    .optional()
    .describe('record-checks: the CI checks the policy requires to pass on the captured input'),
  next: NextStep.optional().describe(
    'stop: what can still happen (a new run, or a person ruling or extending)',
  ),
});

export const MayOutput = z.strictObject({
  ok,
  runId: RunId,
  stage: z.string(),
  allowed: z.boolean(),
  rejection: Rejection.nullable().describe('the rule that refuses it, when allowed is false'),
  spent: Cost,
  budget: Cost,
});

const CostEntry = z.strictObject({
  round: z.number().int(),
  stage: z.string(),
  runner: z.string(),
  outcome: z.enum(['finished', 'failed']),
  cost: Cost,
});

export const CostOutput = z.strictObject({
  ok,
  runId: RunId,
  spent: Cost,
  budget: Cost,
  remaining: Cost.describe('what is left in every unit the budget names'),
  byRound: z.array(z.strictObject({ round: z.number().int(), spent: Cost, stages: z.array(CostEntry) })),
  byRunner: z.array(z.strictObject({ runner: z.string(), spent: Cost })),
});

export const ReproductionsOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int(),
  reproductions: z.array(ReproductionToRun),
});

export const ReproduceOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int().describe('the round in progress, whose captured input the reproduction ran on'),
  inputSha: z.string(),
  findingId: z.string().describe('the full id of the finding'),
  outcome: z.enum(['still-fails', 'no-longer-fails']),
  outputSha: Sha.nullable().describe('the archived output, when --output was given'),
  seq: Seq.nullable(),
  alreadyRecorded: z
    .boolean()
    .describe('this outcome was already on the record for this finding and input: nothing was appended'),
  pending: z.number().int().describe('reproductions still to re-run on this input'),
});

export const DisputeOutput = z.strictObject({
  ok,
  runId: RunId,
  findingId: Sha.describe('the full id of the disputed finding'),
  round: z.number().int().describe('the round in progress: the round that must rule on the dispute'),
  reason: z.string().describe("the author's reason, as recorded"),
  seq: Seq.nullable(),
  alreadyRecorded: z
    .boolean()
    .describe('this very dispute was already on the record, waiting for its ruling: nothing was appended'),
  status: RunStatus,
});

const CheckResult = z.strictObject({
  name: z.string(),
  state: z.enum(['passed', 'failed', 'skipped']),
  url: z.string().optional().describe("the check's page, an http(s) URL"),
});

export const ChecksOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int().describe('the round whose captured input the checks ran on'),
  inputSha: z.string(),
  checks: z.array(CheckResult).describe('every check recorded, as it finished'),
  result: z
    .enum(['recorded', 'ci_failed'])
    .describe('ci_failed: a required check did not pass, and the round ended with them as its reason'),
  failed: z
    .array(CheckResult)
    .describe('the required checks that failed, or were skipped without being expected skips'),
  noted: z.array(CheckResult).describe('the optional checks that failed: noted, never ci_failed'),
  required: z.array(z.string()).describe("the checks the run's policy requires"),
  reason: z.string().nullable().describe('why the round ended, when it ended ci_failed (the feedback)'),
  status: RunStatus,
  seq: Seq.nullable(),
  alreadyRecorded: z
    .boolean()
    .describe('these very checks were the last recorded for this round and input: nothing was appended'),
});

export const RuleOutput = z.strictObject({
  ok,
  runId: RunId,
  findingId: Sha,
  findingStatus: z.enum(['fixed', 'withdrawn']),
  by: z.string(),
  status: RunStatus,
  convergedBy: z.string().nullable(),
  seq: Seq.nullable(),
});

export const ExtendOutput = z.strictObject({
  ok,
  runId: RunId,
  rounds: z.number().int(),
  by: z.string(),
  maxRounds: z.number().int(),
  status: RunStatus,
  seq: Seq.nullable(),
});

export const SarifOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int(),
  sarif: z
    .looseObject({ version: z.literal('2.1.0'), runs: z.array(z.unknown()) })
    .describe('a SARIF 2.1.0 log (its own schema is the OASIS one)'),
});

export const ReportOutput = z.strictObject({
  ok,
  runId: RunId,
  file: z.string(),
  bytes: z.number().int(),
  status: RunStatus,
  round: z.number().int().describe('the last round that ended'),
});

export const VerifyOutput = z.strictObject({
  ok,
  runs: z.array(
    z.looseObject({
      runId: RunId,
      intact: z.boolean(),
      events: z.number().int(),
      lastSeq: z.number().int(),
      tornTail: TornTail.nullable(),
    }),
  ),
});

export const SchemaOutput = z.strictObject({
  ok,
  schema: z.string().describe('which schema: report, event or output <command>'),
  jsonSchema: z.record(z.string(), z.unknown()),
});

const DemoAction = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('clearance'),
    argv: z.array(z.string()).describe('the command line after `clearance`, as the demo printed and ran it'),
    exit: z.number().int().describe('the exit status it gave'),
  }),
  z.strictObject({
    kind: z.literal('write'),
    file: z.string().describe('relative to workdir'),
    text: z.string(),
    mode: z.number().int().optional().describe('the file mode, when not the default'),
  }),
  z.strictObject({
    kind: z.literal('git'),
    args: z.array(z.string()).describe('the git command line, run in workdir'),
  }),
]);

export const DemoOutput = z.strictObject({
  ok,
  dir: z.string().describe('the one store every run is in (CLEARANCE_DIR for every command)'),
  workdir: z.string().describe('where every command ran: the paths they name are relative to it'),
  runs: z.array(z.looseObject({ runId: RunId, status: RunStatus })),
  steps: z
    .array(z.strictObject({ step: z.number().int(), title: z.string(), actions: z.array(DemoAction) }))
    .describe('what each step did, in order: what a replay of the demo runs'),
});

export const VersionOutput = z.strictObject({ ok, version: z.string() });
export const HelpOutput = z.strictObject({ ok, command: z.string(), help: z.string() });

export const ContributeOutput = z.strictObject({
  ok,
  runId: RunId,
  round: z.number().int().describe('the round in progress this contribution is for'),
  /** `expert`: the log's spelling of the reviewer, kept in the JSON too */
  expert: z.string().nullable().describe('the reviewer, or null for an anonymous contribution'),
  seq: Seq.nullable(),
  alreadyRecorded: z
    .boolean()
    .describe('this reviewer already handed in this very report: nothing was appended'),
  contributions: z.array(z.string()).describe('who has handed in for this round so far'),
});

export const ExportOutput = z.strictObject({
  ok,
  runId: RunId,
  lines: z.number().int(),
  bytes: z.number().int(),
  objects: z.array(z.string()).describe('the archived outputs copied with --objects'),
  log: z.string().describe("the run's log lines, exactly as stored"),
});

export const ImportOutput = z.strictObject({
  ok,
  runId: RunId,
  events: z.number().int(),
  objects: z.number().int(),
  store: z.string(),
});

export const StoreInitOutput = z.strictObject({
  ok,
  store: z.string().describe('the database (or the directory, which needs no init), never its credentials'),
  kind: z.enum(['file', 'postgres']),
  from: z.number().int().nullable().describe('the schema version found, null when there was none'),
  to: z.number().int().nullable(),
});

export { Rename };

const Envelope = z
  .strictObject({
    payload: z.string().describe('base64 of the statement (RFC 8785 canonical JSON)'),
    payloadType: z.string().describe('application/vnd.in-toto+json'),
    signatures: z.array(z.strictObject({ keyid: z.string(), sig: z.string() })),
  })
  .describe('a DSSE envelope');

export const AttestOutput = z.union([
  z.strictObject({
    ok,
    runId: RunId,
    keyid: z.string().describe('the SSH fingerprint of the signing key'),
    out: z.string().nullable().describe('the file written, or null (the envelope is here)'),
    envelope: Envelope,
  }),
  z.strictObject({
    ok,
    valid: z
      .literal(true)
      .describe('an attestation that does not hold is a failure (exit 1) naming the reason'),
    runId: RunId,
    verdict: z.string(),
    signer: z.strictObject({ keyid: z.string(), principal: z.string().nullable() }),
    subject: z.array(z.strictObject({ name: z.string(), digest: z.record(z.string(), z.string()) })),
    policy: z.strictObject({ name: z.string(), digest: z.strictObject({ sha256: Sha }) }),
    commit: Sha.nullable(),
    log: z.strictObject({ head: Sha, verdict: z.string(), appendedSince: z.number().int() }).nullable(),
  }),
]);

export const AuditOutput = z.strictObject({
  ok,
  range: z.string(),
  commits: z.array(
    z.strictObject({
      commit: Sha,
      tree: Sha,
      status: z.enum(['reviewed', 'unreviewed', 'invalid']),
      match: z
        .enum(['identity', 'tree', 'patch'])
        .nullable()
        .describe(
          'identity: its own note attests it was reviewed; tree: a reviewed commit has its tree; patch: its note attests a converged review of another commit that makes the same patch',
        ),
      reason: z.enum(['envelope', 'signature', 'signer', 'subject', 'head', 'verdict']).nullable(),
      message: z.string(),
      attested: z
        .strictObject({
          commit: Sha,
          runId: RunId,
          verdict: z.string(),
          signer: z.strictObject({ keyid: z.string(), principals: z.array(z.string()) }),
          policy: z.strictObject({ name: z.string(), sha256: Sha }),
        })
        .nullable(),
    }),
  ),
  reviewed: z.number().int(),
  unreviewed: z.number().int(),
  invalid: z.number().int(),
});
