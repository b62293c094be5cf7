/**
 * The one deadline of a wait. It is fixed once, when the wait starts, from the monotonic clock
 * (`performance.now()`, which a wall-clock step cannot move), and nothing extends it: every loop,
 * every read chunk and the final acceptance ask the same object.
 */
export type Deadline = Readonly<{
  timeoutMs: number;
  /** ms left, never negative */
  remaining: () => number;
  expired: () => boolean;
  /** ms since the wait started */
  waited: () => number;
}>;

export const startDeadline = (timeoutMs: number): Deadline => {
  const startedAt = performance.now();
  const at = startedAt + timeoutMs;
  return {
    timeoutMs,
    remaining: () => Math.max(0, at - performance.now()),
    expired: () => performance.now() >= at,
    waited: () => performance.now() - startedAt,
  };
};
