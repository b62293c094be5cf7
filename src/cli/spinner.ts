import type { Io } from './context.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * While `work` runs, show a spinner with the elapsed and remaining time on stderr — only on a TTY
 * and never under --json: a script's stderr stays clean.
 */
export const withSpinner = async <T>(
  io: Io,
  json: boolean,
  label: string,
  budgetMs: number,
  work: Promise<T>,
): Promise<T> => {
  if (json || io.stderr.isTTY !== true) return work;
  const started = performance.now();
  let frame = 0;
  const draw = () => {
    const elapsed = (performance.now() - started) / 1000;
    const left = Math.max(0, budgetMs / 1000 - elapsed);
    io.stderr.write(
      `\r${FRAMES[frame++ % FRAMES.length]} ${label} ${elapsed.toFixed(1)} s elapsed, ${left.toFixed(1)} s left\u001b[K`,
    );
  };
  draw();
  const timer = setInterval(draw, 100);
  try {
    return await work;
  } finally {
    clearInterval(timer);
    io.stderr.write('\r\u001b[K');
  }
};
