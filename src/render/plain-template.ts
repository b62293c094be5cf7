import { plainText } from '../text/untrusted.js';

/**
 * One line of terminal text in clearance's words: every interpolated value goes through
 * `plainText`, so none can end the line, start a workflow command or reach the terminal as a
 * control, and none can be forgotten. The line as a whole goes through it once more, so two values
 * side by side cannot make a `##[` together; clearance's own words hold nothing it changes, and
 * `plainText` leaves its own output as it is. Numbers come out as they went in.
 */
export const plain = (strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string =>
  plainText(
    strings.reduce((out, s, i) => out + s + (i < values.length ? plainText(String(values[i])) : ''), ''),
  );
