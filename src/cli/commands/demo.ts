import type { Command } from 'commander';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { runDemo } from '../demo/index.js';

export const registerDemo = (program: Command, io: Io): Command =>
  program
    .command('demo')
    .description(
      'run whole review loops in a fresh temporary directory and store, printing each command and what it printed: start here',
    )
    .addHelpText('after', examples('clearance demo', 'clearance demo --json'))
    .action(action(io, async (ctx) => runDemo(ctx)));
