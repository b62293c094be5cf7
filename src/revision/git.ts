import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ClearanceError } from '../errors.js';

const execFileAsync = promisify(execFile);

/** File contents at a revision can be large; git's output is never truncated silently. */
const MAX_BUFFER = 512 * 1024 * 1024;

export type GitOptions = Readonly<{
  /** extra environment, merged over the caller's (which is kept: HOME, PATH, GIT_* the user set) */
  env?: Readonly<Record<string, string>>;
  /** written to git's standard input: text, or bytes as they are */
  input?: string | Buffer;
}>;

/**
 * `LC_ALL=C` keeps git's messages in English, so the one place that reads stderr
 * (`not a git repository`) does not depend on the user's locale.
 */
/**
 * Variables that would point git at another repository, index or object store than the one named
 * by `-C`: inherited from a hook or a script, they would make a capture bind the wrong bytes.
 */
const REDIRECTS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

const environment = (extra: GitOptions['env']): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REDIRECTS) delete env[name];
  return { ...env, ...extra, LC_ALL: 'C' };
};

const commandLine = (args: ReadonlyArray<string>): string => `git ${args.join(' ')}`;

type ExecFailure = Error & { code?: unknown; stderr?: unknown };

const failure = (repo: string, args: ReadonlyArray<string>, error: ExecFailure): ClearanceError => {
  const stderr = (
    Buffer.isBuffer(error.stderr) ? error.stderr.toString('utf8') : String(error.stderr ?? '')
  ).trim();
  const command = commandLine(args);
  if (error.code === 'ENOENT') {
    return new ClearanceError('git-failed', `${command} in ${repo}: git is not installed or not on PATH`, {
      command,
      repo,
    });
  }
  const known = inClearanceWords(repo, stderr);
  if (known !== undefined) return new ClearanceError(known.code, known.message, { command, repo, stderr });
  const why = stderr === '' ? error.message : stderr;
  return new ClearanceError('git-failed', `${command} failed in ${repo}: ${why}`, { command, repo, stderr });
};

/**
 * The failures a person meets first, said in clearance's words with the fix instead of git's: a
 * directory that is not there, one that is no repository, a repository with no commit yet. git's
 * own words (in English: `LC_ALL=C`) stay in the details.
 */
const inClearanceWords = (
  repo: string,
  stderr: string,
):
  | Readonly<{ code: 'no-such-directory' | 'not-a-repository' | 'no-commit'; message: string }>
  | undefined => {
  if (/^fatal: cannot change to .*: (No such file or directory|Not a directory)/m.test(stderr))
    return {
      code: 'no-such-directory',
      message: `there is no directory ${repo}: give the directory of the git repository under review`,
    };
  if (/not a git repository/.test(stderr))
    return {
      code: 'not-a-repository',
      message: `${repo} is not inside a git repository: give the directory of the one under review, or name the input yourself (an input sha)`,
    };
  if (/ambiguous argument 'HEAD'|does not have any commits yet|bad default revision 'HEAD'/.test(stderr))
    return {
      code: 'no-commit',
      message: `the repository ${repo} has no commit yet: commit what is to be reviewed, then try again`,
    };
  return undefined;
};

const run = async (
  repo: string,
  args: ReadonlyArray<string>,
  options: GitOptions,
  encoding: 'utf8' | 'buffer',
): Promise<string | Buffer> => {
  const pending = execFileAsync('git', ['-C', repo, ...args], {
    env: environment(options.env),
    maxBuffer: MAX_BUFFER,
    encoding,
    windowsHide: true,
  });
  const stdin = pending.child.stdin;
  // git may exit before reading all its input (a bad revision); the exit status reports that,
  // and an EPIPE on the pipe must not crash the process.
  stdin?.on('error', () => {});
  stdin?.end(options.input ?? '');
  try {
    return (await pending).stdout;
  } catch (error) {
    throw failure(repo, args, error as ExecFailure);
  }
};

/** Run `git -C repo ...args` without a shell and return its standard output as UTF-8 text. */
export const git = async (
  repo: string,
  args: ReadonlyArray<string>,
  options: GitOptions = {},
): Promise<string> => (await run(repo, args, options, 'utf8')) as string;

/** As `git`, returning the raw bytes: for file contents, which need not be text. */
export const gitBytes = async (
  repo: string,
  args: ReadonlyArray<string>,
  options: GitOptions = {},
): Promise<Buffer> => (await run(repo, args, options, 'buffer')) as Buffer;

/** Split `-z` output into its fields; the final NUL terminates, it does not start an empty field. */
export const nulFields = (output: string): string[] => {
  const fields = output.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
};
