import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ClearanceError } from '../errors.js';

const execFileAsync = promisify(execFile);

/** File contents at a revision can be large; git's output is never truncated silently. */
const MAX_BUFFER = 512 * 1024 * 1024;

export type GitOptions = Readonly<{
  /** extra environment, merged over the caller's (which is kept: HOME, PATH, GIT_* the user set) */
  env?: Readonly<Record<string, string>>;
  /** written to git's standard input */
  input?: string;
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
  const why = stderr === '' ? error.message : stderr;
  const code = /not a git repository/.test(stderr) ? 'not-a-repository' : 'git-failed';
  return new ClearanceError(code, `${command} failed in ${repo}: ${why}`, { command, repo, stderr });
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
