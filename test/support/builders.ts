import type {
  Candidate,
  CitationCheck,
  Decision,
  DomainEvent,
  Policy,
  RevisionCaptured,
  RoundReport,
  RunOpened,
} from '../../src/index.js';
import { findingId, PRESETS, roundRecorded } from '../../src/index.js';

export const RUN = 'run-1';
export const sha = (label: string): string => label.padEnd(40, '0');

export const opened = (policy: Policy = PRESETS.default, runId = RUN): RunOpened => ({
  type: 'run.opened',
  data: { runId, policy, subject: { repo: '.' }, consent: { by: 'tester' } },
});

export const captured = (
  round: number,
  input: string,
  changes: { touched?: string[]; renames?: Array<{ from: string; to: string }> } = {},
): RevisionCaptured => ({
  type: 'revision.captured',
  data: { round, inputSha: sha(input), touchedFiles: changes.touched ?? [], renames: changes.renames ?? [] },
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
export const recordedResolved = (r: RoundReport) => roundRecorded(r, resolved(r).citations);
