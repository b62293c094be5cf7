import type { Policy } from '../events/policy.js';
import type { FindingView } from '../projections/views/findings.js';
import { showControls } from '../text/untrusted.js';
import { byImportance, type Level, levelOf } from './level.js';
import { placeNotes } from './place-note.js';

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`). GitHub shows at
 * most ten annotations of each level for a step, so each level keeps its ten most important and
 * the rest are counted in a plain log line.
 *
 * Each annotation is one line of the log whatever its values hold: the runner's own escaping
 * (`escapeData`, `escapeProperty`) keeps a value inside its command, and every control and bidi
 * character is shown escaped first (`showControls`), so none reaches the log or the annotation raw.
 */

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export type Annotation = Readonly<{
  level: AnnotationLevel;
  title: string;
  /** one line: a newline in it, as every control, is shown escaped (`\n`) */
  message: string;
  /** a second line of clearance's own under the message, e.g. the finding's id and age */
  detail?: string;
  file?: string;
  line?: number;
}>;

export const ANNOTATIONS_PER_LEVEL = 10;

/** A command's message: GitHub decodes `%25`, `%0D` and `%0A`, so those three are encoded. */
export const escapeData = (s: string): string =>
  s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/** A property value also ends at `,` and its name at `:`: both encoded too. */
export const escapeProperty = (s: string): string =>
  escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** The message, then the detail on a line of its own: the one line break is clearance's. */
const messageData = (a: Annotation): string =>
  escapeData([a.message, ...(a.detail === undefined ? [] : [a.detail])].map(showControls).join('\n'));

export const workflowCommand = (a: Annotation): string => {
  const props: Array<[string, string]> = [];
  if (a.file !== undefined) props.push(['file', a.file]);
  if (a.line !== undefined) props.push(['line', String(a.line)]);
  props.push(['title', a.title]);
  return `::${a.level} ${props.map(([k, v]) => `${k}=${escapeProperty(showControls(v))}`).join(',')}::${messageData(a)}`;
};

const ANNOTATION_LEVEL: Readonly<Record<Level, AnnotationLevel>> = {
  error: 'error',
  warning: 'warning',
  note: 'notice',
};

/** Open findings as annotations, most important first; fixed and withdrawn findings say nothing. */
export const findingAnnotations = (policy: Policy, findings: ReadonlyArray<FindingView>): Annotation[] =>
  findings
    .filter((f) => f.status === 'open')
    .sort(byImportance(policy))
    .map((f) => ({
      level: ANNOTATION_LEVEL[levelOf(policy, f)],
      file: f.file,
      ...(f.line === null ? {} : { line: f.line }),
      title: `${f.blocking ? 'blocking' : 'advisory'} ${f.severity} ${f.category}`,
      message: `${f.summary}${f.section === null ? '' : ` (§ ${f.section})`}`,
      detail: [
        `finding ${f.id.slice(0, 12)}, open ${f.roundsOpen} round${f.roundsOpen === 1 ? '' : 's'}`,
        ...placeNotes(f),
      ].join('; '),
    }));

export type WorkflowCommandLines = Readonly<{
  /** the annotations GitHub shows, one workflow command a line */
  commands: ReadonlyArray<string>;
  /** one plain line per level saying how many were left out and where to see them all */
  notShown: ReadonlyArray<string>;
}>;

/**
 * The workflow commands for annotations given most important first: at most ten of each level,
 * then one plain line per level saying how many were left out and where to see them all.
 */
export const workflowCommandLines = (
  annotations: ReadonlyArray<Annotation>,
  seeAll: string,
): WorkflowCommandLines => {
  const shown: string[] = [];
  const hidden: Record<AnnotationLevel, number> = { error: 0, warning: 0, notice: 0 };
  const count: Record<AnnotationLevel, number> = { error: 0, warning: 0, notice: 0 };
  for (const a of annotations) {
    count[a.level] += 1;
    if (count[a.level] <= ANNOTATIONS_PER_LEVEL) shown.push(workflowCommand(a));
    else hidden[a.level] += 1;
  }
  const notShown = (Object.keys(hidden) as AnnotationLevel[])
    .filter((level) => hidden[level] > 0)
    .map(
      (level) =>
        `clearance: ${hidden[level]} more ${level} annotation(s) not shown (GitHub shows ${ANNOTATIONS_PER_LEVEL} of each level): ${seeAll}`,
    );
  return { commands: shown, notShown };
};

/** The annotations' workflow commands, then the lines counting those left out. */
export const workflowCommands = (annotations: ReadonlyArray<Annotation>, seeAll: string): string => {
  const { commands, notShown } = workflowCommandLines(annotations, seeAll);
  return [...commands, ...notShown].join('\n');
};
