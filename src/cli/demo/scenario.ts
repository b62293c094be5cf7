import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import type { Session } from './session.js';

/** The demo's review data: a service with a leaked handle (major) and a style nit. */
export const MAJOR = {
  file: 'src/service.js',
  line: 42,
  category: 'correctness',
  summary: 'Connection handle is not closed when the request is aborted',
  severity: 'major',
  confirmed: true,
  evidence: 'abort a request mid-stream: lsof shows one more open socket per aborted request',
} as const;

export const NIT = {
  file: 'src/format.js',
  line: 7,
  category: 'style',
  summary: 'Prefer a template literal over string concatenation',
  severity: 'nit',
  confirmed: true,
  evidence: "'Hello, ' + name + '!' builds the greeting",
} as const;

/** a nit round 2 finds: under the converging policy it is deferred to a follow-up, not admitted */
export const LATE_NIT = {
  ...NIT,
  line: 12,
  summary: 'Prefer const for a binding that is never reassigned',
  evidence: 'let greeting is assigned once at line 12',
} as const;

export const REVISION_A = 'a1f3c5e7091b2d4f6a8c0e1f3a5b7c9d1e3f5a7b';
export const REVISION_B = 'b2e4d6f8a0c1e3f5b7d9f1a3c5e7a9b1d3f5c7e9';

export const report = (
  runId: string,
  round: number,
  inputSha: string,
  over: Partial<RoundReport> = {},
): RoundReport => ({
  runId,
  round,
  inputSha,
  completed: true,
  candidates: [],
  decisions: [],
  reviewer: 'demo-reviewer',
  ...over,
});

export const revision = (round: number): string => `${round}`.repeat(40).slice(0, 40);

/** A report as the file a reviewer hands in. */
export const reportFile = (r: RoundReport): string => `${JSON.stringify(r, null, 2)}\n`;

/** What a report holds, in one line: what the demo prints when it writes one. */
export const reportSays = (r: RoundReport): string => {
  const held = [
    ...r.candidates.map((c) => `${c.severity} at ${c.file}:${c.line ?? c.section}`),
    ...r.decisions.map((d) => `${d.id.slice(0, 12)} ${d.status}`),
    ...(r.verifications ?? []).map((v) => `${v.verdict} ${v.file}: ${v.summary}`),
  ];
  return `${r.reviewer}'s report on round ${r.round} (input ${r.inputSha.slice(0, 12)}): ${held.length === 0 ? 'nothing found, nothing decided' : held.join('; ')}`;
};

/** Write a report where a reviewer would leave it, saying what it holds. */
export const writeReport = (s: Session, file: string, r: RoundReport): Promise<void> =>
  s.write(file, reportFile(r), reportSays(r));
