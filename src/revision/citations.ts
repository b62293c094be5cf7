import { readFile } from 'node:fs/promises';
import type { CitationCheck } from '@clearance/fold/internal/events/event.js';
import { quoted } from '@clearance/fold/internal/events/quoted.js';
import { repoPathProblem } from '@clearance/fold/internal/events/repo-path.js';
import type { Candidate } from '@clearance/fold/internal/events/report-types.js';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { citationOf, placeOf } from '@clearance/fold/internal/projections/citation.js';
import { type FileAtRevision, filesAtRevision } from './blobs.js';

export type CitationSource = Readonly<{
  repo?: string;
  /** the captured revision (a commit or tree id); HEAD when not given */
  rev?: string;
  /** a document artifact cited by `name`, read from `path` only if its bytes still hash to `sha` */
  artifact?: Readonly<{ path: string; sha: string; name: string }>;
}>;

type Located = Readonly<{ file: string; line?: number | undefined; section?: string | undefined }>;

/** What the file a citation points into turned out to be: its bytes, or why there are none. */
type Target = Readonly<{ kind: 'bytes'; bytes: Buffer }> | Readonly<{ kind: 'absent'; reason: string }>;

const SHOWN_HEADINGS = 5;
const LF = 0x0a;

/** Lines as an editor numbers them: a trailing newline ends the last line, it does not start one. */
export const lineCount = (bytes: Uint8Array): number => {
  let count = 0;
  for (const byte of bytes) if (byte === LF) count++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== LF ? count + 1 : count;
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const shortRev = (rev: string): string => (/^[0-9a-f]{40,64}$/i.test(rev) ? rev.slice(0, 12) : rev);

const fromRevision = (file: string, found: FileAtRevision | undefined, rev: string): Target => {
  const at = `at revision ${shortRev(rev)}`;
  switch (found?.kind) {
    case 'file':
      return { kind: 'bytes', bytes: found.bytes };
    case 'not-a-file':
      return { kind: 'absent', reason: `${file} is a ${found.type}, not a file, ${at}` };
    case 'unaskable':
      return {
        kind: 'absent',
        reason: `${file} has a newline or NUL in its name and cannot be looked up in git`,
      };
    default:
      return { kind: 'absent', reason: `${file} does not exist ${at}` };
  }
};

const fromArtifact = async (artifact: NonNullable<CitationSource['artifact']>): Promise<Target> => {
  try {
    const bytes = await readFile(artifact.path);
    return sha256Hex(bytes) === artifact.sha
      ? { kind: 'bytes', bytes }
      : { kind: 'absent', reason: `the artifact changed since it was captured (${artifact.path})` };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return {
      kind: 'absent',
      reason: `cannot read the artifact ${artifact.path}: ${e.code ?? ''} ${e.message}`,
    };
  }
};

const lineReason = (file: string, line: number, bytes: Buffer): string | undefined => {
  if (!Number.isInteger(line) || line < 1) return `line ${line} is not a line number (lines start at 1)`;
  const count = lineCount(bytes);
  return line <= count ? undefined : `${file} has ${plural(count, 'line')}; line ${line} is past its end`;
};

type Markdown = Pick<typeof import('./markdown.js'), 'headingsOf' | 'normalizeHeading'>;

const sectionReason = (
  markdown: Markdown,
  file: string,
  section: string,
  bytes: Buffer,
): string | undefined => {
  const { headingsOf, normalizeHeading } = markdown;
  const wanted = normalizeHeading(section);
  const found = headingsOf(bytes.toString('utf8'));
  // `## The *Install* step` is cited as it reads ("The Install step") or as it was typed
  if (found.some((h) => h.text === wanted || h.source === wanted)) return undefined;
  const headings = found.map((h) => h.text);
  if (headings.length === 0) return `${file} has no headings`;
  const shown = headings
    .slice(0, SHOWN_HEADINGS)
    .map((h) => JSON.stringify(h))
    .join(', ');
  const more = headings.length > SHOWN_HEADINGS ? ` and ${headings.length - SHOWN_HEADINGS} more` : '';
  return `${file} has no heading ${JSON.stringify(wanted)}; its headings are ${shown}${more}`;
};

const check = (markdown: Markdown, index: number, c: Located, target: Target): CitationCheck => {
  const citation = citationOf(placeOf(c));
  const reason =
    target.kind === 'absent'
      ? target.reason
      : c.line !== undefined
        ? lineReason(c.file, c.line, target.bytes)
        : c.section !== undefined
          ? sectionReason(markdown, c.file, c.section, target.bytes)
          : undefined;
  return reason === undefined
    ? { candidate: index, citation, resolved: true }
    : { candidate: index, citation, resolved: false, reason };
};

/**
 * Resolve each candidate's citation at the captured revision: a line must exist in the file as it
 * was committed, a section must be a heading of the document as CommonMark reads it (by its rendered
 * text or as typed). Files come from git (or, for the
 * document artifact, from its bytes on disk once they still hash to what was captured), each read
 * once; the checks come back in candidate order.
 */
export const resolveCitations = async (
  source: CitationSource,
  candidates: ReadonlyArray<Candidate>,
): Promise<CitationCheck[]> => {
  const { repo, artifact } = source;
  const rev = source.rev ?? 'HEAD';
  const isArtifact = (file: string): boolean => artifact !== undefined && file === artifact.name;
  // defence in depth behind the report's door: a name that is no repository path is never asked of
  // git (which would read `a.js\0../x` as `a.js`) and never resolves
  const inRepo = [
    ...new Set(
      candidates.map((c) => c.file).filter((f) => !isArtifact(f) && repoPathProblem(f) === undefined),
    ),
  ];
  const [files, artifactTarget] = await Promise.all([
    repo === undefined || inRepo.length === 0
      ? new Map<string, FileAtRevision>()
      : filesAtRevision(repo, rev, inRepo),
    artifact === undefined || !candidates.some((c) => isArtifact(c.file))
      ? undefined
      : fromArtifact(artifact),
  ]);
  const targetOf = (file: string): Target => {
    const problem = repoPathProblem(file);
    if (problem !== undefined)
      return { kind: 'absent', reason: `${quoted(file)} is not a path in the repository: it ${problem}` };
    if (isArtifact(file) && artifactTarget !== undefined) return artifactTarget;
    if (repo === undefined) {
      return {
        kind: 'absent',
        reason: `${file} is not the artifact and no repository is bound to read it from`,
      };
    }
    return fromRevision(file, files.get(file), rev);
  };
  // loaded on demand: the bundled CLI's cold start does not evaluate the Markdown parser
  const markdown = await import('./markdown.js');
  return candidates.map((c, i) => check(markdown, i, c, targetOf(c.file)));
};
