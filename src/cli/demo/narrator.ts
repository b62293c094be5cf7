import type { Colors } from '../context.js';

/** Prints the demo as numbered steps for a person, with the command that would do the same. */
export type Narrator = Readonly<{
  step: (title: string) => void;
  command: (line: string) => void;
  say: (line: string) => void;
  lines: () => string;
}>;

export const narrator = (c: Colors): Narrator => {
  const out: string[] = [];
  let n = 0;
  return {
    step: (title) => {
      n += 1;
      out.push('', c.bold(`${n}. ${title}`));
    },
    command: (line) => out.push(c.dim(`   $ clearance ${line}`)),
    say: (line) => out.push(...line.split('\n').map((l) => `   ${l}`)),
    lines: () => out.join('\n'),
  };
};
