/** Words a POSIX shell reads as they are: no quoting needed. */
const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** What a shell still acts on inside double quotes (`!`: bash's history expansion, interactively). */
const ACTIVE_IN_DOUBLE_QUOTES = /["\\$`!]/;

/**
 * One argument as a person would type it into a POSIX shell, so that the shell hands the program
 * exactly this string: bare when nothing in it is special, in double quotes when nothing in it
 * acts there (`--why "the pool closes the handle"`), else in single quotes.
 */
export const shellWord = (arg: string): string => {
  if (BARE.test(arg)) return arg;
  if (!ACTIVE_IN_DOUBLE_QUOTES.test(arg)) return `"${arg}"`;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
};

/** A command line a shell splits back into exactly these words. */
export const shellLine = (words: ReadonlyArray<string>): string => words.map(shellWord).join(' ');
