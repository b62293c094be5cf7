import { rejection } from '@clearance/fold/internal/events/rejection.js';
import { REPORT_LIMITS } from '@clearance/fold/internal/events/report-limits.js';
import { ClearanceError, refusal } from '../errors.js';
import { DEFAULT_MAX_BYTES } from '../handoff/wait-budget.js';

/**
 * How much of each value an operation's input may hold, whichever door it came in by (the command
 * line, the MCP server over stdio or HTTP, a library caller). What is written into a log, or
 * echoed in an answer, is bounded before anything is read or written: an 8 MiB `inputSha` once went
 * into a log as one 8 MiB line and back out in an answer larger than a client reads. The bounds
 * follow the report's own (`REPORT_LIMITS`), so a run can always take the report its capture names.
 */
export const INPUT_BOUNDS = {
  /** a captured input's name: a report naming it holds at most this many characters */
  inputSha: REPORT_LIMITS.inputSha,
  /** a path: a touched or renamed file, a repository, a document, a file to wait on */
  path: REPORT_LIMITS.file,
  /** the files one capture names as touched (or renamed) */
  paths: 100_000,
  /** a revision name (`base`) */
  revision: 1024,
  /** why a round ends without a report, why the same input is reviewed again */
  reason: REPORT_LIMITS.evidence,
  /** a stage's name */
  stage: REPORT_LIMITS.category,
  /** a command a review may run, and how many one answer names */
  command: REPORT_LIMITS.reproduction,
  commands: 1000,
  /** the bytes of an input read whole (a reproduction's output, a review in Markdown): the CLI's default --max-bytes */
  bytes: DEFAULT_MAX_BYTES,
} as const;

const overLimit = (field: string, message: string, details: Readonly<Record<string, number>>) =>
  refusal(rejection('over-limit', `${field} ${message}`, [field], details));

/** `value` (when given) holds at most `max` characters, or `over-limit` naming the field, never quoting it. */
export const boundText = (field: string, value: string | undefined, max: number): void => {
  if (value !== undefined && value.length > max)
    throw overLimit(field, `is ${value.length} characters long, over the ${max} it may have`, {
      length: value.length,
      limit: max,
    });
};

/** `list` (when given) holds at most `count` items of at most `max` characters each. */
export const boundList = (
  field: string,
  list: ReadonlyArray<string> | undefined,
  count: number,
  max: number,
): void => {
  if (list === undefined) return;
  if (list.length > count)
    throw overLimit(field, `names ${list.length} items, over the ${count} it may name`, {
      items: list.length,
      limit: count,
    });
  for (const [i, item] of list.entries()) boundText(`${field}[${i}]`, item, max);
};

/** What a capture names (at `open` and at `capture`): its input, its files, its base. */
export const boundCapture = (
  input: Readonly<{
    inputSha?: string | undefined;
    touched?: ReadonlyArray<string> | undefined;
    renames?: ReadonlyArray<Readonly<{ from: string; to: string }>> | undefined;
    base?: string | undefined;
    repo?: string | undefined;
    artifact?: string | undefined;
  }>,
): void => {
  boundText('inputSha', input.inputSha, INPUT_BOUNDS.inputSha);
  boundText('base', input.base, INPUT_BOUNDS.revision);
  boundText('repo', input.repo, INPUT_BOUNDS.path);
  boundText('artifact', input.artifact, INPUT_BOUNDS.path);
  boundList('touched', input.touched, INPUT_BOUNDS.paths, INPUT_BOUNDS.path);
  boundList(
    'renames',
    input.renames?.map((r) => r.from),
    INPUT_BOUNDS.paths,
    INPUT_BOUNDS.path,
  );
  boundList(
    'renames',
    input.renames?.map((r) => r.to),
    INPUT_BOUNDS.paths,
    INPUT_BOUNDS.path,
  );
};

/**
 * The bytes of an input read whole, at most `INPUT_BOUNDS.bytes`, or `oversized` naming the field:
 * the code the command line gives an input larger than its --max-bytes.
 */
export const boundBytes = (field: string, bytes: number): void => {
  if (bytes > INPUT_BOUNDS.bytes)
    throw new ClearanceError(
      'oversized',
      `${field} is ${bytes} bytes, over the ${INPUT_BOUNDS.bytes} it may have`,
      { path: [field], bytes, limit: INPUT_BOUNDS.bytes },
    );
};
