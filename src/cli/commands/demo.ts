import type { Command } from 'commander';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';
import { runDemo } from '../demo/index.js';

export const registerDemo = (program: Command, io: Io): Command =>
  program
    .command('demo')
    .description('run a whole review loop in a fresh temporary store and print it: start here')
    .addHelpText('after', examples('clearance demo', 'clearance demo --json'))
    .action(action(io, async (ctx) => runDemo(ctx)));
