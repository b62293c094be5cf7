import { describe, expect, it } from 'vitest';
import { commandsNeeded, registerCommands } from '../../src/cli/commands/index.js';
import type { Io } from '../../src/cli/context.js';
import { buildProgram } from '../../src/cli/program.js';

const io: Io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} };
const ALL = [
  'open',
  'capture',
  'publish',
  'wait',
  'stage',
  'contribute',
  'collect',
  'record',
  'status',
  'findings',
  'replay',
  'explain',
  'feedback',
  'gate',
  'next',
  'may',
  'cost',
  'reproductions',
  'reproduce',
  'dispute',
  'checks',
  'rule',
  'extend',
  'sarif',
  'report',
  'verify',
  'attest',
  'audit',
  'schema',
  'export',
  'import',
  'store',
  'mcp',
  'demo',
];

/** The program's own options, as `run` sees them (built for `--version`, so with no command). */
const programOptions = async () => (await buildProgram(io, false, ['--version'])).options;

describe('which commands a command line loads', () => {
  it('narrows to the command named after the global options, in every spelling commander accepts', async () => {
    const options = await programOptions();
    expect(commandsNeeded(['status', 'run-1'], options)).toEqual(['status']);
    expect(
      commandsNeeded(['--dir', '/tmp/s', '--by', 'ana', 'record', 'r', '--report', 'f'], options),
    ).toEqual(['record']);
    expect(commandsNeeded(['--dir=/tmp/s', '--json', '--lock-timeout', '50', 'status'], options)).toEqual([
      'status',
    ]);
    // the value of --dir is not the command, even when it is spelt like one
    expect(commandsNeeded(['--dir', 'open', 'status'], options)).toEqual(['status']);
  });

  it('loads no command for --version, and every command for help, a typo or an option it does not know', async () => {
    const options = await programOptions();
    expect(commandsNeeded(['--version'], options)).toEqual([]);
    expect(commandsNeeded(['--dir', 'x', '-V'], options)).toEqual([]);
    for (const argv of [
      [],
      ['--help'],
      ['-h', 'status'],
      ['help', 'status'],
      ['stauts'],
      ['--frob', 'status'],
      ['--', 'status'],
      ['--json'],
    ])
      expect(commandsNeeded(argv, options), argv.join(' ')).toEqual(ALL);
  });

  it('each name loads the module that registers exactly the command of that name', async () => {
    for (const name of ALL) {
      const program = await buildProgram(io, false, ['--version']);
      await registerCommands(program, io, [name], {});
      // `help` (help-topics/) is the program's own, registered whatever the command line
      expect(program.commands.map((c) => c.name()).filter((c) => c !== 'help')).toEqual([name]);
    }
  });

  it('every command, in the order --help lists them', async () => {
    const program = await buildProgram(io, false, []);
    expect(program.commands.map((c) => c.name())).toEqual([...ALL, 'help']);
  });
});
