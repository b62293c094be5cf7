/**
 * How a finding cites its place: `src/a.ts:12`, or `docs/guide.md § Install`. Below the rules and
 * the views alike: a citation check (rules) and every view name a place the same way.
 */
export const citationOf = (
  f: Readonly<{ file: string; line: number | null; section: string | null }>,
): string =>
  f.line !== null ? `${f.file}:${f.line}` : f.section !== null ? `${f.file} § ${f.section}` : f.file;

/**
 * Where a candidate points, its missing line or section as null: the place a finding, a suppressed
 * or a refuted candidate keeps, and what `citationOf` reads.
 */
export const placeOf = (
  c: Readonly<{ file: string; line?: number | undefined; section?: string | undefined }>,
): { file: string; line: number | null; section: string | null } => ({
  file: c.file,
  line: c.line ?? null,
  section: c.section ?? null,
});
