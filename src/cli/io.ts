/**
 * What the command line talks to, typed by what it uses rather than by Node's stream classes, so
 * a test (or an embedder) can run the CLI in-process with plain objects. `main.ts` hands in the
 * process's own streams.
 */
export type Output = Readonly<{
  write: (text: string) => unknown;
  /** a terminal: colours and the wait's spinner are shown only there */
  isTTY?: boolean;
}>;

export type Io = Readonly<{
  stdout: Output;
  stderr: Output;
  /** read only for `-` inputs, and never past the input bound */
  stdin: AsyncIterable<Uint8Array | string>;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Subscribe to Ctrl-C for as long as a wait runs; returns the unsubscribe. Absent: a wait cannot
   * be interrupted other than by the process dying.
   */
  onInterrupt?: (handler: () => void) => () => void;
}>;
