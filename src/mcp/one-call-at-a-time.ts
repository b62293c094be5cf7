import type { Store } from '../store/store.js';

/**
 * The store with its calls made one after another. The PostgreSQL store runs every query on one
 * connection, one command at a time (`store/postgres/index.ts`); an MCP server takes calls from
 * many clients at once (and one agent's parallel tool calls), and two appends interleaved on one
 * connection would put one's statements inside the other's transaction. Each call is whole (an
 * append's decision runs inside it, and calls no other), so queueing calls is enough. The file
 * store needs none of this: each append takes the run's lock, in this process as in any other.
 */
export const oneCallAtATime = (store: Store): Store => {
  let last: Promise<unknown> = Promise.resolve();
  const queued =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    (...args: A): Promise<T> => {
      const run = last.then(() => call(...args));
      last = run.catch(() => undefined);
      return run;
    };
  return {
    ...store,
    createRun: queued(store.createRun),
    append: queued(store.append),
    readLog: queued(store.readLog),
    foldRun: queued(store.foldRun),
    readRunSummary: queued(store.readRunSummary),
    listRuns: queued(store.listRuns),
    archiveOutput: queued(store.archiveOutput),
    readOutput: queued(store.readOutput),
  };
};
