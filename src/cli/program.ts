import { Command, CommanderError } from 'commander';
import { ClearanceError } from '../errors.js';
import { VERSION } from '../operations/version.js';
import { exitStatusOf } from './action.js';
import { commandsNeeded, registerCommands } from './commands/index.js';
import type { Io } from './context.js';
import { EXIT, exitTable } from './exit-codes.js';
import { defaultFrom } from './help-topics/environment.js';
import { registerHelp } from './help-topics/index.js';
import { parsePositiveInt } from './option-values.js';
import { githubText, messageText, printFailure } from './output.js';
import { formatOption } from './output-format.js';
import type { Services } from './services.js';

export { VERSION } from '../operations/version.js';

/**
 * `--help` and `--version` under `--json` print one object too: commander's text is held here and
 * handed to `run`, which wraps it.
 */
type Held = { text: string };

/** The program, with the commands `argv` can reach (all of them for help or anything unclear). */
export const buildProgram = async (
  io: Io,
  json: boolean,
  argv: ReadonlyArray<string>,
  held: Held = { text: '' },
  services: Services = {},
): Promise<Command> => {
  // commander's own text (usage errors, help) is printed before any command runs: a runner's log
  // gets it where the runner acts on no command too
  const forLog = githubLog(argv)
    ? (text: string) => `${githubText(text.replace(/\n$/, ''))}\n`
    : (text: string) => text;
  const program = new Command('clearance')
    .description('Owns the loops, budgets and stop conditions of automated code review.')
    .version(VERSION)
    .option(
      '--dir <dir>',
      `the store ${defaultFrom('CLEARANCE_DIR')}; never committed, and shared by linked worktrees`,
    )
    .option(
      '--store <location>',
      `where runs are kept: a directory or file: URL (the file store, as --dir), or postgres://… (the PostgreSQL store; run \`clearance store init\` once) ${defaultFrom('CLEARANCE_STORE')}`,
    )
    .option('--by <name>', `who is acting ${defaultFrom('CLEARANCE_ACTOR')}`)
    .option('--json', 'print exactly one JSON object on stdout, whatever the outcome')
    .option(
      '--json-file <file>',
      'also write the one JSON object --json prints to <file>, whatever the outcome (the text or --format github output still goes to stdout)',
    )
    .addOption(formatOption())
    .option(
      '--lock-timeout <ms>',
      `how long an append waits for the run lock, in ms ${defaultFrom('CLEARANCE_LOCK_TIMEOUT_MS')}`,
      parsePositiveInt,
    )
    .showHelpAfterError(!json)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => {
        if (json) held.text += text;
        else io.stdout.write(forLog(text));
      },
      // under --json a usage error is printed once, as the JSON envelope, by `run`; commander's own
      // messages quote the argv they refuse (`unknown option '- ##[error'`), so each line is encoded
      writeErr: (text) => (json ? undefined : io.stderr.write(forLog(messageText(text)))),
    });
  await registerCommands(program, io, commandsNeeded(argv, program.options), services);
  registerHelp(program, io);
  program.addHelpText(
    'after',
    `
Input limits: every file or standard input read (--report, --findings-md, --policy-file,
stage --output, publish --report) is read through one bounded reader: at most --max-bytes
(default 4 MiB) or it is refused as oversized. Text must be UTF-8 (refused naming the byte
offset); JSON must be exact: no duplicated key, integers within ±(2^53-1), nesting at most 64.

Exit statuses:
${exitTable()}

More: clearance help exit-codes, clearance help environment.

Start with: clearance demo`,
  );
  return program;
};

/** Whether the command line asks for `--format github`, read before commander parses it. */
const githubLog = (argv: ReadonlyArray<string>): boolean =>
  argv.some((arg, n) => arg === '--format=github' || (arg === '--format' && argv[n + 1] === 'github'));

const heldAsJson = (code: string, text: string): Readonly<Record<string, unknown>> => {
  if (code === 'commander.version') return { ok: true, version: VERSION };
  // the usage line names the command: "Usage: clearance record [options] <run>"
  const command = /^Usage: (clearance(?: [a-z-]+)?)/.exec(text)?.[1] ?? 'clearance';
  return { ok: true, command, help: text };
};

/** Run the command line and return its exit status (the caller sets process.exitCode). */
export const run = async (argv: ReadonlyArray<string>, io: Io, services: Services = {}): Promise<number> => {
  const json = argv.includes('--json');
  const held: Held = { text: '' };
  const program = await buildProgram(io, json, argv, held, services);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitStatusOf(program);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        if (json) io.stdout.write(`${JSON.stringify(heldAsJson(error.code, held.text))}\n`);
        return EXIT.ok;
      }
      if (json)
        return printFailure(io, json, new ClearanceError('usage', error.message.replace(/^error: /, '')));
      return EXIT.usage;
    }
    return printFailure(io, json, error);
  }
};
