import type {
  Candidate,
  CitationCheck,
  Cost,
  Decision,
  DomainEvent,
  LineMove,
  Policy,
  RevisionCaptured,
  RoundEndResult,
  RoundReport,
  RunOpened,
  StageStartedData,
} from '../../src/index.js';
import { DEFAULT_STAGES, findingId, PRESETS, roundRecorded, sha256Hex } from '../../src/index.js';

export const RUN = 'run-1';
export const sha = (label: string): string => label.padEnd(40, '0');

export const opened = (policy: Policy = PRESETS.default, runId = RUN): RunOpened => ({
  type: 'run.opened',
  data: { runId, policy, subject: { repo: '.' }, consent: { by: 'tester' } },
});

export const captured = (
  round: number,
  input: string,
  changes: { touched?: string[]; renames?: Array<{ from: string; to: string }>; moves?: LineMove[] } = {},
): RevisionCaptured => ({
  type: 'revision.captured',
  data: {
    round,
    inputSha: sha(input),
    touchedFiles: changes.touched ?? [],
    renames: changes.renames ?? [],
    ...(changes.moves === undefined ? {} : { moves: changes.moves }),
  },
});

export const candidate = (over: Partial<Candidate> = {}): Candidate => ({
  file: 'src/service.js',
  line: 10,
  category: 'correctness',
  summary: 'Missing close',
  severity: 'major',
  confirmed: true,
  evidence: 'the handle leaks when the request is aborted',
  ...over,
});

export const nit = (n: number, over: Partial<Candidate> = {}): Candidate =>
  candidate({
    file: 'src/style.js',
    line: n,
    category: 'style',
    summary: `nit number ${n}`,
    severity: 'nit',
    ...over,
  });

export const decision = (
  c: Candidate | string,
  status: Decision['status'],
  evidence = 'checked at this revision',
): Decision => ({
  id: typeof c === 'string' ? c : findingId(c),
  status,
  evidence,
});

export const report = (round: number, input: string, over: Partial<RoundReport> = {}): RoundReport => ({
  runId: RUN,
  round,
  inputSha: sha(input),
  completed: true,
  candidates: [],
  decisions: [],
  ...over,
});

export const idOf = findingId;

export type Events = ReadonlyArray<DomainEvent>;

/** Every candidate's citation, resolved: what `src/revision` reports for a report whose citations all exist. */
export const resolved = (r: RoundReport): { citations: CitationCheck[] } => ({
  citations: r.candidates.map((c, i) => ({
    candidate: i,
    citation: c.line !== undefined ? `${c.file}:${c.line}` : `${c.file} § ${c.section}`,
    resolved: true,
  })),
});

/** A report recorded with its citations resolved, as the record path does under issueflow. */
export const recordedResolved = (r: RoundReport) => roundRecorded(r, { citations: resolved(r).citations });

/** A run whose user consented to these commands, under this policy. */
export const openedWith = (policy: Policy, commands: string[] = []): RunOpened => ({
  type: 'run.opened',
  data: { runId: RUN, policy, subject: { repo: '.' }, consent: { by: 'tester', commands } },
});

export const started = (
  round: number,
  stage: string,
  extra: Partial<StageStartedData> = {},
): DomainEvent => ({
  type: 'stage.started',
  data: { round, stage, commands: [], ...extra },
});

export const stageOutput = (stage: string): string => sha256Hex(`output of ${stage}`);

export const finished = (round: number, stage: string, cost: Cost = {}): DomainEvent => ({
  type: 'stage.finished',
  data: { round, stage, outputSha: stageOutput(stage), cost, runner: `${stage}-agent` },
});

export const failed = (
  round: number,
  stage: string,
  reason = 'the model timed out',
  cost: Cost = {},
): DomainEvent => ({
  type: 'stage.failed',
  data: { round, stage, reason, cost, runner: `${stage}-agent` },
});

/** Every stage of the default policy, started and finished, each spending `tokens`. */
export const allStages = (round: number, tokens = 0): DomainEvent[] =>
  DEFAULT_STAGES.flatMap((stage) => [started(round, stage), finished(round, stage, { tokens })]);

export const ended = (round: number, result: RoundEndResult, reason: string): DomainEvent => ({
  type: 'round.ended',
  data: { round, result, reason },
});

export const ruled = (
  id: string,
  status: 'fixed' | 'withdrawn',
  why = 'accepted risk',
  by = 'Ada',
): DomainEvent => ({
  type: 'finding.ruled',
  data: { findingId: id, status, why, by },
});

export const extended = (rounds: number, why = 'one more try', by = 'Ada'): DomainEvent => ({
  type: 'rounds.extended',
  data: { rounds, why, by },
});

/** A finding's reproduction re-run on the input captured for `round` (labelled like `captured`). */
export const reproduced = (
  round: number,
  input: string,
  id: string,
  outcome: 'still-fails' | 'no-longer-fails',
  outputSha?: string,
): DomainEvent => ({
  type: 'reproduction.recorded',
  data: {
    round,
    inputSha: sha(input),
    findingId: id,
    outcome,
    ...(outputSha === undefined ? {} : { outputSha }),
  },
});

/** The CI checks recorded on the input captured for `round` (labelled like `captured`). */
export const checked = (
  round: number,
  input: string,
  checks: ReadonlyArray<{ name: string; state: 'passed' | 'failed' | 'skipped'; url?: string }>,
): DomainEvent => ({
  type: 'checks.recorded',
  data: { round, inputSha: sha(input), checks },
});

/** A policy of the default's rules that requires `test`, notes `docs` and lets `lint` be skipped. */
export const CHECKED_POLICY: Policy = {
  ...PRESETS.default,
  name: 'checked',
  stages: [],
  checks: { required: ['test', 'lint'], optional: ['docs'], expectedSkips: ['lint'] },
};

/** The author disputes a finding for the round in progress (`round`), with a reason. */
export const disputed = (round: number, id: string, reason = 'the pool closes the handle'): DomainEvent => ({
  type: 'finding.disputed',
  data: { findingId: id, round, reason },
});
