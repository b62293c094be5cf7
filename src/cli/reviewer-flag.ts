import { type Command, Option } from 'commander';
import { ClearanceError } from '../errors.js';

type Parse<T> = (flag: string) => (value: string, previous: T) => T;

/**
 * `--reviewer`, with `--expert` (its spelling before issue 28) kept as a hidden alias so that
 * scripts written against it keep running: `--help` shows only `--reviewer`.
 */
export const withReviewerFlag = <T>(
  command: Command,
  argument: string,
  description: string,
  parse?: Parse<T>,
): Command => {
  const flag = (name: string): Option => {
    const option = new Option(`${name} ${argument}`, description);
    return parse === undefined ? option : option.argParser(parse(name));
  };
  return command.addOption(flag('--reviewer')).addOption(flag('--expert').hideHelp());
};

/** The reviewer flag's value, under either spelling; both at once is refused rather than one picked. */
export const reviewerFlagOf = <T>(opts: Readonly<{ reviewer?: T; expert?: T }>): T | undefined => {
  if (opts.reviewer !== undefined && opts.expert !== undefined)
    throw new ClearanceError(
      'usage',
      'give --reviewer or --expert (its older spelling), not both: they name the same reviewer',
    );
  return opts.reviewer ?? opts.expert;
};
