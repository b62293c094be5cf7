import { ABSENCE_REASONS } from '@clearance/fold/internal/events/codecs/contribution-absent-v1.js';
import { LineMoveSchema } from '@clearance/fold/internal/events/line-move-schema.js';
import { STEP_ACTIONS } from '@clearance/fold/internal/events/next-step.js';
import { RecordedCostSchema, ReportSchema } from '@clearance/fold/internal/events/round-report.js';
import * as z from 'zod';

/**
 * The pieces several commands' `--json` outputs share, described once so a field has one name and
 * one shape wherever it appears. They describe shape only; what the values mean is decided in
 * src/projections.
 */

export const RUN_STATUSES = ['unopened', 'open', 'converged', 'blocked'] as const;
export const RunStatus = z.enum(RUN_STATUSES).describe("the run's status, derived by the fold");
export const FindingStatus = z.enum(['open', 'fixed', 'withdrawn']);
export const Sha = z.string().describe('a hex digest or git object id');
export const Seq = z.number().int().describe('the sequence number of the last event appended');

/** what was spent or is allowed, as read back from a log: tokens, usd, seconds (a unit absent is nothing) */
export const Cost = RecordedCostSchema.describe(
  'an amount in tokens, usd and seconds; a unit absent is nothing',
);

export const Report = ReportSchema;

export const Rename = z.strictObject({ from: z.string(), to: z.string() });

/** a captured revision: the input a round reviews (`open` and `capture` print the same shape) */
export const Capture = z
  .strictObject({
    inputSha: Sha.describe('what the round reviews: the tree, or the artifact digest'),
    touchedFiles: z.array(z.string()),
    renames: z.array(Rename),
    commit: Sha.optional(),
    tree: Sha.optional(),
    dirty: z.boolean().optional().describe('true: the working tree, uncommitted changes included'),
    artifactSha: Sha.optional(),
    base: z.string().optional(),
    sameInput: z
      .strictObject({ reason: z.string() })
      .optional()
      .describe('present when the round reviews again the input the round before reviewed: why'),
    moves: z
      .array(LineMoveSchema)
      .optional()
      .describe("where the open findings' cited lines went since the last reviewed input"),
  })
  .describe('the revision captured for a round');

export const FindingStep = z.strictObject({
  round: z.number().int(),
  how: z
    .enum(['opened', 'decided', 'carried', 'ruled', 'reopened'])
    .describe('reopened: a fixed finding turned open again (status open), with the evidence'),
  status: FindingStatus,
  evidence: z.string().optional(),
  by: z.string().optional(),
});

/** where a finding was cited, when it stands elsewhere now, and why (a view's optional fields) */
export const PlaceRecord = {
  cited: z
    .strictObject({ file: z.string(), line: z.number().int().nullable() })
    .optional()
    .describe(
      'where its reviewer cited it, when it stands elsewhere now: its line followed its code, or a verifier placed it',
    ),
  outdated: z
    .literal(true)
    .optional()
    .describe('its cited line was deleted or rewritten since: it stays open until a round decides it'),
  correction: z
    .strictObject({ by: z.string(), evidence: z.string() })
    .optional()
    .describe('the verifier who placed it where it opened instead of where its reviewer cited it, and why'),
};

export const FindingView = z.strictObject({
  id: Sha.describe('the finding id: stable across line moves'),
  file: z.string(),
  line: z.number().int().nullable(),
  section: z.string().nullable(),
  citation: z.string().describe('file:line, or file § Section: where it is now'),
  ...PlaceRecord,
  category: z.string(),
  summary: z.string(),
  severity: z.string(),
  status: FindingStatus,
  blocking: z.boolean(),
  openedRound: z.number().int(),
  roundsOpen: z.number().int(),
  reopened: z.number().int().describe('how many times it was reopened after a fix (0 for most)'),
});

/** why a blocked run is blocked, and the stall that blocked it early */
export const BlockedReason = z
  .enum(['cap', 'stalled', 'disputed'])
  .nullable()
  .describe(
    "while blocked: cap (its last round ended with a blocking finding open), stalled (early, policy stallRounds) or disputed (early: a blocking finding upheld after the policy's count of disputes); null otherwise",
  );
export const Stall = z
  .strictObject({
    round: z.number().int().describe('the round that stalled the run'),
    findings: z.array(
      z.strictObject({
        id: Sha,
        why: z
          .enum(['kept-open', 'reopened-twice', 'disputed'])
          .describe(
            "kept-open: decided open in stallRounds consecutive rounds; reopened-twice: the fix is not holding; disputed: upheld after the policy's count of disputes (disputes.blockAfter)",
          ),
      }),
    ),
  })
  .nullable()
  .describe('while stalled: the round that stalled the run and the findings that did; null otherwise');

const count = (what: string) => z.number().int().describe(what);

export const RoundTally = z
  .strictObject({
    opened: count('findings the round opened'),
    fixed: count('findings it decided fixed'),
    withdrawn: count('findings it decided withdrawn'),
    reopened: count('findings it reopened'),
    deferred: count('candidates it deferred to a follow-up'),
    stillOpen: count('findings open after it'),
    blockingOpen: count('blocking findings open after it'),
    filesChanged: z
      .number()
      .int()
      .nullable()
      .describe('files its input changed since the last reviewed one; null when it had no capture'),
  })
  .describe('what the round did to the findings, counted as it ended');

export const RoundOutcome = z.strictObject({
  round: z.number().int(),
  result: z.enum(['complete', 'partial', 'none', 'ci_failed']),
  reason: z.string().nullable(),
  reportSha: z.string().optional().describe("the recorded report's hash, for a round that ended with one"),
  sameInput: z
    .string()
    .optional()
    .describe('why the round reviewed again the input the round before reviewed'),
  tally: RoundTally,
});

export const MergedFrom = z
  .strictObject({
    id: Sha,
    reviewer: z.string(),
    file: z.string(),
    line: z.number().int().nullable(),
    category: z.string(),
  })
  .describe('a candidate the merge folded into this finding, and who proposed it');

export const Panel = z
  .strictObject({
    round: z.number().int(),
    /** the reviewers: `contributors` is this JSON's spelling, kept */
    contributors: z.array(z.string()).describe('the reviewers who handed in, sorted'),
    reports: z
      .array(
        z.strictObject({
          reviewer: z.string().describe('the reviewer, or "anonymous"'),
          reportSha: Sha,
          candidates: z.number().int(),
          decisions: z.number().int(),
        }),
      )
      .describe('each contribution, in the order it was recorded'),
    absent: z
      .array(
        z.strictObject({
          /** the reviewer: `expert` is the log's spelling, kept here */
          expert: z.string(),
          reason: z.enum(ABSENCE_REASONS),
          detail: z.string(),
        }),
      )
      .describe('who handed in nothing usable, and why'),
  })
  .describe("a round's reviewers: each contribution, and who was absent");

export const Ruling = z.strictObject({
  round: z.number().int(),
  findingId: Sha,
  status: z.enum(['fixed', 'withdrawn']),
  why: z.string(),
  by: z.string(),
});

/** A dispute as `explain` lists it. */
export const DisputeView = z.strictObject({
  findingId: Sha,
  citation: z.string(),
  severity: z.string(),
  summary: z.string(),
  blocking: z.boolean(),
  findingStatus: FindingStatus.describe("the finding's status now"),
  round: z.number().int().describe('the round in progress when the author disputed it'),
  reason: z.string().describe("the author's reason"),
  ruling: z
    .strictObject({
      round: z.number().int(),
      status: FindingStatus.describe('open: upheld; withdrawn: the dispute accepted; fixed: moot'),
      evidence: z.string(),
      by: z.string().optional().describe("for a person's ruling past the cap: who made it"),
    })
    .nullable()
    .describe('how a round (or a person) ruled on it; null while it waits for the next recorded round'),
});

export const Extension = z.strictObject({
  round: z.number().int(),
  rounds: z.number().int(),
  why: z.string(),
  by: z.string(),
});

export const Suppressed = z.strictObject({
  id: Sha,
  round: z.number().int(),
  file: z.string(),
  line: z.number().int().nullable(),
  section: z.string().nullable(),
  severity: z.string(),
  summary: z.string(),
  reason: z.enum(['late', 'cap']),
});

const DEFERRED_REASON = z
  .enum(['until-round', 'outside-fix'])
  .describe(
    'until-round: past the last round its severity is admitted in (untilRound); outside-fix: new, from round 2, in a file the last fix did not touch (newOutsideFix: defer)',
  );

/** a candidate deferred to a follow-up, kept whole: never a finding, never blocking */
export const Deferred = z
  .strictObject({
    id: Sha.describe("the candidate's id"),
    round: z.number().int().describe('the round that deferred it'),
    file: z.string(),
    line: z.number().int().nullable(),
    section: z.string().nullable(),
    category: z.string(),
    severity: z.string(),
    summary: z.string(),
    evidence: z.string(),
    reviewers: z.array(z.string()).describe('who proposed it (empty for an anonymous report)'),
    reason: DEFERRED_REASON,
  })
  .describe('a candidate deferred to a follow-up: kept whole, never a finding, never blocking');

/** the same, as explain shows it: where it points, and the round its severity is admitted until */
export const DeferredView = Deferred.extend({
  citation: z.string().describe('file:line, or file § Section'),
  untilRound: z
    .number()
    .int()
    .nullable()
    .describe('reason until-round: the last round its severity is admitted in; null otherwise'),
});

const Step = z.strictObject({
  action: z.enum(STEP_ACTIONS),
  runId: z.string().optional(),
  args: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .describe('what the step needs besides the run, by the name the command takes it (true: supply it)'),
});

/** what would move things on instead: a step, and another that would do as well */
export const NextStep = Step.extend({ or: Step.optional() }).describe(
  'the step that would move things on instead, as data: the command line says it as a clearance command, the MCP server as a tool',
);

export const Rejection = z.strictObject({
  code: z.string().describe('the rule that refuses, e.g. over-budget'),
  message: z.string(),
  next: NextStep.optional(),
});

/** every failure, of every command: `{"ok":false,"error":{code,message,details?,next?}}` */
export const Failure = z
  .strictObject({
    ok: z.literal(false),
    error: z.strictObject({
      code: z
        .string()
        .describe('a stable code: a rule (over-budget) or an operational failure (run-missing)'),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      next: NextStep.optional(),
    }),
  })
  .describe('a refusal or failure; the exit status says which kind');
