import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Candidate, type Policy, PRESETS, type SeverityRule } from '../../src/index.js';

/**
 * The issueflow review corpus of natejswenson/local-fitness PR #236 (MIT, see
 * test/fixtures/corpus/issueflow-pr236/NOTICE.md), read as the issueflow pipeline wrote it:
 * finders file candidates `c-<finder>-<n>`, a plan de-duplicates them, verifiers rule on each, and a
 * registrar keeps findings under its own ids `f-<hash>`. Nothing here knows about clearance.
 */
export const CORPUS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/corpus/issueflow-pr236',
);

export type CorpusCandidate = Readonly<{
  id: string;
  file: string;
  line: number;
  category: string;
  summary: string;
  failure_scenario: string;
}>;

export type Ruling = 'CONFIRMED' | 'PLAUSIBLE' | 'REFUTED' | 'fixed' | 'still-open';

export type CorpusVerdict = Readonly<{ id: string; verdict: Ruling; severity?: string; note: string }>;

export type RegisteredFinding = Readonly<{
  id: string;
  file: string;
  category: string;
  summary: string;
  severity: string;
  status: 'open' | 'fixed' | 'withdrawn';
  firstRound: number;
  demoted: string | null;
}>;

export type Registered = Readonly<{
  round: number;
  head: string;
  verdict: string;
  counts: Readonly<{ open: number; majors: number; nits: number; preExisting: number; dropped: number }>;
  transitions: Readonly<{
    fixed: string[];
    stillOpen: string[];
    withdrawn: string[];
    new: string[];
    suppressed: string[];
  }>;
  notExamined: string[];
  findings: RegisteredFinding[];
}>;

export type CorpusRound = Readonly<{
  /** every candidate the finders filed, by id */
  filed: ReadonlyMap<string, CorpusCandidate>;
  /** the plan's de-duplicated candidates (merged ones are gone), in plan order */
  planned: ReadonlyArray<CorpusCandidate>;
  verdicts: ReadonlyMap<string, CorpusVerdict>;
  registered: Registered;
  /** the files the PR diff at this head touches (its `diff --git a/… b/…` headers) */
  diffFiles: ReadonlyArray<string>;
  /** per file, the blob id after the change (`index <before>..<after>`) */
  blobs: ReadonlyMap<string, string>;
}>;

const json = <T>(file: string): T => JSON.parse(readFileSync(path.join(CORPUS, file), 'utf8')) as T;

const numbered = (round: string, prefix: string): string[] =>
  readdirSync(path.join(CORPUS, round))
    .filter((name) => new RegExp(`^${prefix}-\\d+\\.json$`).test(name))
    .sort();

export const loadRound = (round: 'r1' | 'r2'): CorpusRound => {
  const filed = new Map<string, CorpusCandidate>();
  for (const name of numbered(round, 'candidates')) {
    const finder = /-(\d+)\.json$/.exec(name)?.[1];
    const { candidates } = json<{ candidates: Omit<CorpusCandidate, 'id'>[] }>(`${round}/${name}`);
    for (const [i, c] of candidates.entries())
      filed.set(`c-${finder}-${i + 1}`, { ...c, id: `c-${finder}-${i + 1}` });
  }
  const verdicts = new Map<string, CorpusVerdict>();
  for (const name of numbered(round, 'verdicts')) {
    for (const v of json<{ verdicts: CorpusVerdict[] }>(`${round}/${name}`).verdicts) {
      if (verdicts.has(v.id)) throw new Error(`${round}: two verifiers ruled on ${v.id}`);
      verdicts.set(v.id, v);
    }
  }
  const diff = readFileSync(path.join(CORPUS, round, 'diff.patch'), 'utf8');
  const diffFiles = [...diff.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)].map((m) => m[2] as string);
  const blobs = new Map(
    [...diff.matchAll(/^diff --git a\/\S+ b\/(\S+)\nindex [0-9a-f]+\.\.([0-9a-f]+)/gm)].map(
      (m) => [m[1] as string, m[2] as string] as const,
    ),
  );
  return {
    filed,
    planned: json<{ candidates: CorpusCandidate[] }>(`${round}/plan.json`).candidates,
    verdicts,
    registered: json<Registered>(`${round}/registered.json`),
    diffFiles,
    blobs,
  };
};

/** What clearance sees as one finding: the identity it hashes. */
export const identity = (f: Readonly<{ file: string; category: string; summary: string }>): string =>
  JSON.stringify([f.file, f.category, f.summary]);

/**
 * The round's candidates as clearance takes them: the finders' candidates the plan kept after
 * de-duplication, ruled CONFIRMED, the verifier's severity, the failure scenario as evidence.
 */
export const confirmedCandidates = (round: CorpusRound): Candidate[] =>
  round.planned
    .filter((p) => round.verdicts.get(p.id)?.verdict === 'CONFIRMED')
    .map((p) => {
      const c = round.filed.get(p.id);
      const severity = round.verdicts.get(p.id)?.severity;
      if (c === undefined || severity === undefined)
        throw new Error(`${p.id}: no filed candidate or severity`);
      return {
        file: c.file,
        line: c.line,
        category: c.category,
        summary: c.summary,
        severity,
        confirmed: true,
        evidence: c.failure_scenario,
      };
    });

/** The registrar's transitions as clearance's decision statuses, by corpus finding id. */
export const rulings = (registered: Registered): ReadonlyMap<string, 'fixed' | 'open' | 'withdrawn'> =>
  new Map([
    ...registered.transitions.fixed.map((id) => [id, 'fixed'] as const),
    ...registered.transitions.stillOpen.map((id) => [id, 'open'] as const),
    ...registered.transitions.withdrawn.map((id) => [id, 'withdrawn'] as const),
  ]);

/** One finder's raw candidates file, as it filed them (`candidates-N.json`). */
export type FinderFile = Readonly<{
  finder: string;
  candidates: ReadonlyArray<CorpusCandidate & Readonly<{ introduced_by_diff: boolean }>>;
  notExamined: ReadonlyArray<string>;
}>;

/** One verifier's raw rulings file (`verdicts-N.json`): on candidates `c-…` and, from round 2, on findings `f-…`. */
export type VerifierFile = Readonly<{
  verifier: string;
  verdicts: ReadonlyArray<CorpusVerdict & Readonly<{ introduced_by_diff?: boolean }>>;
}>;

/** The round's raw finder and verifier files, before any plan or registrar touched them. */
export const rawRound = (
  round: 'r1' | 'r2',
): Readonly<{ finders: FinderFile[]; verifiers: VerifierFile[] }> => ({
  finders: numbered(round, 'candidates').map((name) => {
    const finder = `finder-${/-(\d+)\.json$/.exec(name)?.[1]}`;
    const raw = json<{ candidates: Omit<FinderFile['candidates'][number], 'id'>[]; notExamined?: string[] }>(
      `${round}/${name}`,
    );
    return {
      finder,
      candidates: raw.candidates.map((c, i) => ({ ...c, id: `c-${finder.slice(7)}-${i + 1}` })),
      notExamined: raw.notExamined ?? [],
    };
  }),
  verifiers: numbered(round, 'verdicts').map((name) => ({
    verifier: `verifier-${/-(\d+)\.json$/.exec(name)?.[1]}`,
    verdicts: json<{ verdicts: VerifierFile['verdicts'][number][] }>(`${round}/${name}`).verdicts,
  })),
});

const blocking: SeverityRule = { blocks: true, firstRoundOnly: false, maxAdmitted: null };
const advisory: SeverityRule = { blocks: false, firstRoundOnly: false, maxAdmitted: null };

/**
 * What the real loop did, as policy: majors block, nits and pre-existing findings advise, a report
 * lists what it did not examine, and a finding in a file the round did not touch may only be kept
 * open or withdrawn. The fields this does not choose keep the default preset's values.
 */
export const CORPUS_POLICY: Policy = {
  ...PRESETS.default,
  name: 'issueflow-pr236',
  maxRounds: 4,
  severities: { major: blocking, nit: advisory, 'pre-existing': advisory },
  notExaminedRequired: true,
  untouchedDecisions: ['open', 'withdrawn'],
};
