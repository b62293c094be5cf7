export type EnvironmentVariable = Readonly<{
  name: string;
  /** what it sets, and the flag that wins over it when there is one */
  meaning: string;
  /** what holds when it is unset */
  unset: string;
  /** read by the test suite only, never by the CLI */
  testsOnly?: true;
}>;

/**
 * Every environment variable clearance reads: the one table `clearance help environment` prints,
 * and the option descriptions quote (`--dir`, `--by`, `--lock-timeout`).
 */
export const ENVIRONMENT: ReadonlyArray<EnvironmentVariable> = [
  {
    name: 'CLEARANCE_DIR',
    meaning: 'the store, when --dir is not given',
    unset:
      "git's own <git common dir>/clearance inside a git work tree (or the one --repo names), else ./.clearance",
  },
  {
    name: 'CLEARANCE_STORE',
    meaning:
      'the store, when neither --store nor --dir is given: a directory or file: URL (the file store), or a postgres://… connection string (never printed)',
    unset: 'CLEARANCE_DIR, then the default of --dir',
  },
  {
    name: 'CLEARANCE_ACTOR',
    meaning: 'who is acting, when --by is not given (never for rule and extend, which need --by)',
    unset: 'the OS user',
  },
  {
    name: 'CLEARANCE_LOCK_TIMEOUT_MS',
    meaning: "how long an append waits for the run's lock, in ms, when --lock-timeout is not given",
    // the store's DEFAULT_LOCK_TIMEOUT_MS, written out so that --help does not load the lock
    // (test/cli/help-topics.test.ts holds the two equal)
    unset: '10000',
  },
  {
    name: 'CLEARANCE_MCP_TOKEN',
    meaning:
      'mcp --http: the bearer token every client must send (Authorization: Bearer …); needed to serve on any address but loopback, at least 16 characters',
    unset: 'mcp --http serves loopback alone, with no token',
  },
  {
    name: 'NO_COLOR',
    meaning: 'any non-empty value turns colour off; colour is never used off a terminal or under --json',
    unset: 'colour on a terminal',
  },
  {
    name: 'TERM',
    meaning: 'dumb turns colour off, as NO_COLOR does',
    unset: 'colour on a terminal',
  },
  {
    name: 'SSH_AUTH_SOCK',
    meaning:
      'the ssh-agent --key agent signs with (attest, gate --attest, rule and extend under a policy with signers)',
    unset: 'no agent: --key names a key file',
  },
  {
    name: 'CLEARANCE_KEY_PASSPHRASE',
    meaning: 'the passphrase of an encrypted OpenSSH key --key names (never asked for on a terminal)',
    unset: 'an encrypted key file is refused; use the ssh-agent',
  },
  {
    name: 'GITHUB_STEP_SUMMARY',
    meaning: 'the file --format github appends its Markdown step summary to (GitHub Actions sets it)',
    unset: 'no step summary',
  },
  {
    name: 'XDG_CACHE_HOME',
    meaning:
      "where the CLI keeps V8's compiled code for its next start (<dir>/clearance/code-cache), never inside the working tree",
    unset: '~/.cache (~/Library/Caches on macOS)',
  },
  {
    name: 'LOCALAPPDATA',
    meaning: "Windows: where the CLI keeps V8's compiled code, as XDG_CACHE_HOME elsewhere",
    unset: 'no code cache on Windows',
  },
  {
    name: 'NODE_DISABLE_COMPILE_CACHE',
    meaning: "1 turns the CLI's code cache off: every start compiles its code again",
    unset: 'the code cache is on',
  },
  {
    name: 'CLEARANCE_PROPERTY_RUNS',
    meaning:
      'how many runs each property test gets; lower it for a quick local loop; under CI (CI set) never below 1000',
    unset: '50 locally, 1000 under CI',
    testsOnly: true,
  },
  {
    name: 'CLEARANCE_PROPERTY_SEED',
    meaning: "a failed property's printed seed: each property replays it first",
    unset: 'a new seed each run',
    testsOnly: true,
  },
  {
    name: 'CLEARANCE_PROPERTY_PATH',
    meaning:
      "with CLEARANCE_PROPERTY_SEED, the failure's printed path: straight to its shrunk counterexample",
    unset: 'the whole run from the seed',
    testsOnly: true,
  },
  {
    name: 'CLEARANCE_TEST_PG',
    meaning: "a postgres://… server for the PostgreSQL store's tests, whose role may create databases",
    unset: 'the suite starts a throwaway server with initdb and pg_ctl',
    testsOnly: true,
  },
  {
    name: 'CLEARANCE_PG_BIN',
    meaning: 'the directory holding initdb and pg_ctl, for the throwaway test server',
    unset: "Debian's /usr/lib/postgresql/<version>/bin, else the PATH",
    testsOnly: true,
  },
];

const variable = (name: string): EnvironmentVariable => {
  const found = ENVIRONMENT.find((v) => v.name === name);
  if (found === undefined) throw new Error(`${name} is not in the environment table`);
  return found;
};

/** `(default $NAME, else …)`: how an option names the variable behind it, from the one table. */
export const defaultFrom = (name: string): string => `(default $${name}; else ${variable(name).unset})`;

export const environmentTable = (): string => {
  const width = Math.max(...ENVIRONMENT.map((v) => v.name.length));
  return ENVIRONMENT.map(
    (v) =>
      `  ${v.name.padEnd(width)}  ${v.testsOnly === true ? '(tests only) ' : ''}${v.meaning}\n  ${' '.repeat(width)}  unset: ${v.unset}`,
  ).join('\n');
};
