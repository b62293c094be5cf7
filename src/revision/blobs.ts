import { git, gitBytes } from './git.js';

export type FileAtRevision =
  | Readonly<{ kind: 'file'; bytes: Buffer }>
  | Readonly<{ kind: 'missing' }>
  | Readonly<{ kind: 'not-a-file'; type: string }>
  /**
   * `git cat-file --batch` reads one name a line and stops a name at NUL, so a path with a newline
   * cannot be asked for, and one with a NUL would be answered for another file (`a.js\0../x` as `a.js`)
   */
  | Readonly<{ kind: 'unaskable' }>;

const FOUND = /^[0-9a-f]{40,64} (\S+) (\d+)$/;

/**
 * Read files as they are at `rev` (never from the work tree) with one `git cat-file --batch`:
 * each answer is `<oid> <type> <size>\n<bytes>\n`, or a line ending `missing` for a name that
 * does not exist. Names are asked for under the resolved tree id, so a bad `rev` fails loudly here
 * instead of reading as "every file is missing".
 */
export const filesAtRevision = async (
  repo: string,
  rev: string,
  paths: ReadonlyArray<string>,
): Promise<Map<string, FileAtRevision>> => {
  const files = new Map<string, FileAtRevision>();
  const isAskable = (p: string): boolean => !p.includes('\n') && !p.includes('\u0000');
  const askable = paths.filter(isAskable);
  for (const p of paths) if (!isAskable(p)) files.set(p, { kind: 'unaskable' });
  if (askable.length === 0) return files;

  const tree = (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${rev}^{tree}`])).trim();
  const out = await gitBytes(repo, ['cat-file', '--batch'], {
    input: askable.map((p) => `${tree}:${p}\n`).join(''),
  });
  let at = 0;
  for (const path of askable) {
    const eol = out.indexOf(0x0a, at);
    const header = out.subarray(at, eol === -1 ? out.length : eol).toString('utf8');
    at = eol + 1;
    const found = FOUND.exec(header);
    if (found === null) {
      files.set(path, { kind: 'missing' });
      continue;
    }
    const size = Number(found[2]);
    const type = found[1] ?? 'unknown';
    files.set(
      path,
      type === 'blob' ? { kind: 'file', bytes: out.subarray(at, at + size) } : { kind: 'not-a-file', type },
    );
    at += size + 1;
  }
  return files;
};
