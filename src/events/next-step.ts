/**
 * What to do instead, as data: a refusal (and `next`, and a final run) names the step that would
 * move the run on, and each door says it in its own words: the command line as a `clearance …`
 * command, the MCP server as a tool and its arguments, or that only a person can take it. The fold
 * never writes a command line, since the reader may be an agent with no shell.
 */
export const STEP_ACTIONS = [
  /** open a run; `args.newRun`: a new one, for commits the finished run did not review */
  'open',
  /** capture the next round's input; `args.sameInput`: the bytes the last round reviewed, again, with a reason */
  'capture',
  /** record the round in progress from one report */
  'record',
  /** hand in one reviewer's report for the round in progress */
  'contribute',
  /** close the round in progress from its contributions */
  'merge',
  /** record the CI checks of the captured input */
  'checks',
  /** list the reproductions to re-run, and record what each did */
  'reproductions',
  /** a person closes an open finding of a blocked run */
  'rule',
  /** a person gives a blocked run more rounds */
  'extend',
  /** read where the run stands */
  'status',
] as const;

export type StepAction = (typeof STEP_ACTIONS)[number];

/** The actions only a person takes: no agent tool offers them. */
export const PERSON_ACTIONS: ReadonlySet<StepAction> = new Set<StepAction>(['rule', 'extend']);

export type NextStep = Readonly<{
  action: StepAction;
  /** the run it acts on, when there is one */
  runId?: string;
  /** what the step needs besides the run, by the name the operation's input gives it */
  args?: Readonly<Record<string, string | number | boolean>>;
  /** another step that would do as well (a blocked run: rule, or extend) */
  or?: NextStep;
}>;

export const stepTo = (
  action: StepAction,
  runId?: string,
  args?: Readonly<Record<string, string | number | boolean>>,
): NextStep => ({
  action,
  ...(runId === undefined ? {} : { runId }),
  ...(args === undefined ? {} : { args }),
});
