import type { Io } from './context.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Run a wait: Ctrl-C aborts it through `signal` (the wait then fails as `aborted`, exit 130), and
 * while it runs a spinner with the elapsed and remaining time is drawn on stderr — only on a TTY and
 * never under --json: a script's stderr stays clean. The spinner's line is cleared however the wait
 * ends, an interrupt included, so the shell prompt comes back on a clean line.
 */
export const withSpinner = async <T>(
  io: Io,
  json: boolean,
  label: string,
  budgetMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> => {
  const interrupt = new AbortController();
  const unsubscribe = io.onInterrupt?.(() => interrupt.abort(new Error('interrupted by Ctrl-C')));
  const spinning = !json && io.stderr.isTTY === true;
  const started = performance.now();
  let frame = 0;
  const draw = () => {
    const elapsed = (performance.now() - started) / 1000;
    const left = Math.max(0, budgetMs / 1000 - elapsed);
    io.stderr.write(
      `\r${FRAMES[frame++ % FRAMES.length]} ${label} ${elapsed.toFixed(1)} s elapsed, ${left.toFixed(1)} s left\u001b[K`,
    );
  };
  if (spinning) draw();
  const timer = spinning ? setInterval(draw, 100) : undefined;
  try {
    return await work(interrupt.signal);
  } finally {
    clearInterval(timer);
    unsubscribe?.();
    if (spinning) io.stderr.write('\r\u001b[K');
  }
};
