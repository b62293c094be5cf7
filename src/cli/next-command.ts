import type { NextStep } from '@clearance/fold/internal/events/next-step.js';
import { plainText } from '@clearance/fold/internal/text/untrusted.js';

/** A run id in a command line a person copies: as it is when it needs no quoting (the grammar's own letters). */
const run = (runId: string | undefined): string =>
  runId === undefined ? 'RUN' : /^[A-Za-z0-9._-]+$/.test(runId) ? runId : JSON.stringify(plainText(runId));

/** A name in a command line: as it is when it is a plain word, quoted otherwise, encoded for a terminal. */
const word = (value: string | number | boolean | undefined, placeholder: string): string =>
  typeof value !== 'string' || value === ''
    ? placeholder
    : /^[A-Za-z0-9._@/-]+$/.test(value)
      ? value
      : JSON.stringify(plainText(value));

/**
 * The command line that takes a next step, as a person types it: the fold names the step as data
 * (`NextStep`), and the command line is this door's way of saying it. What the step leaves to the
 * person (a file, a reason) stands as an upper-case placeholder.
 */
export const commandFor = (step: NextStep): string => {
  const id = run(step.runId);
  const args = step.args ?? {};
  switch (step.action) {
    case 'open':
      // the run that is final keeps its id; new commits are reviewed under a new one
      return args.newRun === true ? 'clearance open NEW-RUN --repo DIR' : `clearance open ${id}`;
    case 'capture': {
      const flags = [
        ...(args.repo === true ? ['--repo DIR'] : []),
        ...(args.inputSha === true ? ['--input-sha SHA'] : []),
        ...(args.touched === true ? ['--touched FILE'] : []),
        ...(args.sameInput === true ? ['--same-input', '--reason TEXT'] : []),
      ];
      return ['clearance capture', id, ...flags].join(' ');
    }
    case 'record':
      return args.end === 'partial'
        ? `clearance record ${id} --end partial --reason TEXT`
        : `clearance record ${id} --report FILE${args.partial === true ? ' --partial' : ''}`;
    case 'contribute':
      return `clearance contribute ${id} --reviewer ${word(args.reviewer, 'NAME')} --report FILE`;
    case 'merge':
      return `clearance record ${id} --merge`;
    case 'checks':
      return `clearance checks ${id} --check NAME=passed`;
    case 'reproductions':
      return `clearance reproductions ${id}`;
    case 'rule':
      return `clearance rule ${id} FINDING --fixed|--withdrawn --why TEXT --by NAME`;
    case 'extend':
      return `clearance extend ${id} --rounds N --why TEXT --by NAME`;
    case 'status':
      return `clearance status ${id}`;
  }
};

/** `next: clearance capture pr-1`, and the step that would do as well: what a refusal ends with on a terminal. */
export const nextLine = (step: NextStep): string =>
  `next: ${commandFor(step)}${step.or === undefined ? '' : `\n  or: ${commandFor(step.or)}`}`;
