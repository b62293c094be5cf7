import type { Command } from 'commander';
import { ClearanceError } from '../errors.js';

/**
 * Decisions only a person makes: the name must be given on the command line (`--by NAME`), never
 * taken from $CLEARANCE_ACTOR or the OS user, and a reason is required.
 */
export const personOf = (command: Command): Readonly<{ by: string; why: string }> => {
  const { by, why } = command.optsWithGlobals() as { by?: string; why?: string };
  if (by === undefined || command.getOptionValueSourceWithGlobals('by') !== 'cli' || by.trim() === '') {
    throw new ClearanceError(
      'usage',
      `${command.name()} is a person's decision: name yourself with --by NAME`,
    );
  }
  if (why === undefined || why.trim() === '')
    throw new ClearanceError('usage', `${command.name()} needs a reason: --why TEXT`);
  return { by, why };
};
