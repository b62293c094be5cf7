import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { EXIT_MEANINGS, exitTable } from '../exit-codes.js';
import type { Outcome } from '../output.js';
import { ENVIRONMENT, environmentTable } from './environment.js';

/** Topics that are not commands, each printed from the table the code itself uses. */
const TOPICS: Readonly<Record<string, () => Outcome>> = {
  'exit-codes': () => ({
    json: { topic: 'exit-codes', exitCodes: EXIT_MEANINGS.map(([status, meaning]) => ({ status, meaning })) },
    text: `Exit statuses:\n${exitTable()}\n\n69, 73, 74, 77 and 78 follow BSD's sysexits.h (EX_UNAVAILABLE, EX_CANTCREAT, EX_IOERR, EX_NOPERM, EX_CONFIG).`,
  }),
  environment: () => ({
    json: { topic: 'environment', variables: ENVIRONMENT },
    text: `Environment variables (a flag, where there is one, wins; one set to the empty string counts as unset, and an empty --dir or --store is refused):\n${environmentTable()}`,
  }),
};

export const HELP_TOPICS = Object.keys(TOPICS);

/**
 * `clearance help [topic]`: a command's help, or a topic (exit codes, environment). Replaces
 * commander's own help command, which knows commands only.
 */
export const registerHelp = (program: Command, io: Io): Command =>
  program
    .helpCommand(false)
    .command('help')
    .description(`help for a command, or a topic: ${HELP_TOPICS.join(', ')}`)
    .argument('[topic]', `a command, or ${HELP_TOPICS.join(' or ')}`)
    .addHelpText(
      'after',
      examples('clearance help record', 'clearance help exit-codes', 'clearance help environment --json'),
    )
    .action(
      action(io, async (_ctx, topic: string | undefined) => {
        if (topic === undefined)
          return { json: { topic: null, text: program.helpInformation() }, text: program.helpInformation() };
        const printTopic = TOPICS[topic];
        if (printTopic !== undefined) return printTopic();
        const command = program.commands.find((c) => c.name() === topic || c.aliases().includes(topic));
        if (command !== undefined && command.name() !== 'help')
          return { json: { topic, text: command.helpInformation() }, text: command.helpInformation() };
        throw new ClearanceError(
          'usage',
          `no help topic ${JSON.stringify(topic)}: name a command (clearance --help lists them), or ${HELP_TOPICS.join(' or ')}`,
          { topic },
        );
      }),
    );
