/**
 * The steps of the file store's append protocol, in order, as a test names them to stop a real
 * process at one of them (and then kill it, or take its lock over and let it resume). Each is the
 * instant *after* what it names. Nothing in clearance listens: with no observer, reaching a step
 * is one comparison.
 */
export const APPEND_STEPS = [
  /** about to take the lock (its record already written, in this process's owner file) */
  'acquiring',
  /** the lock exists, with its owner record in it (one `link()` made both) */
  'locked',
  /** the log folded and the new lines built, nothing written */
  'folded',
  /** the lines written to the log (not yet synced) */
  'written',
  /** the checkpoint rewritten for the new end of the log */
  'checkpointed',
  /** the lock released; the lines still to be synced */
  'released',
  /** the log fsynced: the lines are durable */
  'synced',
  /** the head anchor rewritten: the append is done */
  'anchored',
  /** a waiter taking over a dead holder's lock has moved it aside, not yet removed it */
  'moved-aside',
] as const;

export type AppendStep = (typeof APPEND_STEPS)[number];

let observer: ((step: AppendStep) => void) | null = null;

/** Watch every step this process reaches (tests only); null stops watching. */
export const observeAppendSteps = (watch: ((step: AppendStep) => void) | null): void => {
  observer = watch;
};

export const reached = (step: AppendStep): void => {
  if (observer !== null) observer(step);
};
