/**
 * Output read the way the GitHub Actions runner reads it (actions/runner, `ActionCommand.TryParseV2`
 * then `TryParse`, tried on every line a step prints), and the hostile strings a reviewer would
 * try on it. A test puts the strings into every field a renderer shows and asks of its output:
 * which commands would the runner act on, and does any raw control character reach the terminal?
 *
 * `readAsRunner` also keeps the runner's one state, `::stop-commands::<token>` … `::<token>::`.
 * The reading is the runner's, made stricter where the runner depends on state a test cannot see:
 * - a line is ended by LF, CR or CRLF;
 * - a line whose start, after whitespace, is `::` is a command (the runner also wants a second `::`
 *   and a registered name; but `::stop-commands::TOKEN` registers any name, so neither is assumed);
 * - `##[` anywhere in a line is a command, unless the line is already a `::name …::` command of a
 *   name the runner always knows (then the runner never looks for `##[`).
 */

/** The commands every runner registers: a well-formed `::name …::` line of one is never read twice. */
const ALWAYS_REGISTERED = new Set([
  'add-mask',
  'add-matcher',
  'add-path',
  'debug',
  'echo',
  'endgroup',
  'error',
  'group',
  'notice',
  'remove-matcher',
  'save-state',
  'set-env',
  'set-output',
  'stop-commands',
  'warning',
]);

/**
 * Leading whitespace as .NET's `TrimStart` or JavaScript's `\s` might see it, together (U+001C to
 * U+001F and U+0085 too: stricter is safer).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what this file looks for
const LEADING_SPACE = /^[\s\u001c-\u001f\u0085]+/;

/** `::name prop=…::data` and `##[name prop=…]data`: the name ends at a space or the closing mark. */
const v2Name = (line: string): { name: string; wellFormed: boolean } => {
  const end = line.indexOf('::', 2);
  const info = end < 0 ? line.slice(2) : line.slice(2, end);
  const space = info.indexOf(' ');
  return { name: (space < 0 ? info : info.slice(0, space)).toLowerCase(), wellFormed: end >= 0 };
};

const v1Name = (line: string, at: number): string => {
  const info = line.slice(at + 3);
  const end = info.search(/[\s\]]/);
  return (end < 0 ? info : info.slice(0, end)).toLowerCase();
};

/** The names of the commands the runner would find in one line, in order (lower case). */
const lineCommands = (line: string): string[] => {
  const trimmed = line.replace(LEADING_SPACE, '');
  const found: string[] = [];
  let knownCommand = false;
  if (trimmed.startsWith('::')) {
    const { name, wellFormed } = v2Name(trimmed);
    found.push(name);
    knownCommand = wellFormed && ALWAYS_REGISTERED.has(name);
  }
  const legacy = line.indexOf('##[');
  if (legacy >= 0 && !knownCommand) found.push(v1Name(line, legacy));
  return found;
};

const lines = (text: string): string[] => text.split(/\r\n|\r|\n/);

/** The names of the workflow commands the runner would find in `text`, in order (lower case). */
export const runnerCommands = (text: string): string[] => lines(text).flatMap(lineCommands);

/** A `::stop-commands::<token>` … `::<token>::` region, as the runner read it. */
export type StoppedRegion = Readonly<{ token: string; lines: ReadonlyArray<string>; resumed: boolean }>;

/** A log as the runner reads it, line by line, keeping the one state it keeps: commands stopped. */
export type RunnerReading = Readonly<{
  /** the commands the runner acts on, in order (lower case): never those in a stopped region */
  acted: ReadonlyArray<string>;
  /** the lines read while commands ran: the commands acted on and any plain line */
  outside: ReadonlyArray<string>;
  /** each region in order; a region never resumed runs to the end of the log */
  regions: ReadonlyArray<StoppedRegion>;
}>;

/** The data of a stop-commands line: after its second `::`, or after the `]` of its `##[` form. */
const stopToken = (line: string): string => {
  const trimmed = line.replace(LEADING_SPACE, '');
  if (trimmed.startsWith('::')) {
    const end = trimmed.indexOf('::', 2);
    return end < 0 ? '' : trimmed.slice(end + 2);
  }
  const at = line.indexOf('##[');
  const end = line.indexOf(']', at);
  return end < 0 ? '' : line.slice(end + 1);
};

/**
 * `text` read as the runner reads a step's log (actions/runner, `ActionCommandManager`): a line
 * holding `::stop-commands::<token>` (the data after its second `::`) stops every command until a
 * line that names the token, as `::<token>::` or `##[<token>]`, in any case; neither of those two
 * lines is outside or inside a region. Each line is read as `runnerCommands` reads it, so stricter
 * than the runner: the first command a line names is the one it acts on.
 */
export const readAsRunner = (text: string): RunnerReading => {
  const acted: string[] = [];
  const outside: string[] = [];
  const regions: StoppedRegion[] = [];
  let region: { token: string; lines: string[] } | undefined;
  for (const line of lines(text)) {
    const names = lineCommands(line);
    if (region !== undefined) {
      if (names.includes(region.token.toLowerCase())) {
        regions.push({ ...region, resumed: true });
        region = undefined;
      } else region.lines.push(line);
      continue;
    }
    const name = names[0];
    if (name === 'stop-commands') {
      region = { token: stopToken(line), lines: [] };
      continue;
    }
    if (name !== undefined) acted.push(name);
    outside.push(line);
  }
  if (region !== undefined) regions.push({ ...region, resumed: false });
  return { acted, outside, regions };
};

/**
 * Every raw control character in `text` other than the newline a layout writes: C0 (tab and CR
 * included), DEL, C1, the bidi embeddings, overrides and isolates, and the Unicode line and
 * paragraph separators. Each shown as `U+XXXX`, so a failure message says which.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what this file looks for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

export const rawControls = (text: string): string[] =>
  [...text.matchAll(RAW_CONTROL)].map(
    ([c]) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  );

/** What a reviewer would put in any field that clearance prints. */
export const HOSTILE = {
  /** forged annotations, a mask, each on a line of its own */
  workflowCommands: 'x\n::error file=.github/workflows/release.yml,line=1::forged\n::add-mask::y',
  /** an OSC title change and a screen clear */
  terminal: '\u001b]0;PWNED\u0007\u001b[2J',
  /** the runner's legacy form, acted on anywhere in a line */
  legacyCommand: '##[error]boom',
  /** right-to-left override: what follows it reads reversed */
  bidi: 'safe\u202etxt.exe',
  /** a name whose newline writes a verdict line of clearance's own */
  forgedRuling: 'Mallory\nconverged by ruling of Boss after round 9: all good',
  /** commands after leading whitespace, a carriage return, and a stop of all command processing */
  stopCommands: ' \r  ::stop-commands::pwned',
  /** markup for Markdown and HTML sinks: an image, a link, emphasis, code, a heading, a table cell */
  markup: '<img src=x onerror=alert(1)> [x](https://evil.example) **b** `c` # h | t &#x202e;',
} as const;

export const HOSTILE_STRINGS: ReadonlyArray<string> = Object.values(HOSTILE);

/** Every hostile string in one, for a field that is shown once. */
export const ALL_HOSTILE: string = HOSTILE_STRINGS.join(' ');
