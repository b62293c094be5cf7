import { constants as bufferConstants } from 'node:buffer';
import { ClearanceError } from '../errors.js';

/** Ten minutes: a multi-finder review round of a large change takes minutes, not hours. */
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
/**
 * A quarter second: with the directory watch waking the wait on publish, polling is only the
 * fallback for a missed or unsupported watch event, and 250 ms bounds what such a miss costs.
 */
export const DEFAULT_POLL_MS = 250;
/** 4 MiB: real multi-finder reports run to ~80 KB, so this leaves fifty times that headroom. */
export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/** What a wait may spend, and what may cut it short. */
export type WaitOptions = Readonly<{
  /** the whole budget, from the call to the last acceptance; a positive integer of ms */
  timeoutMs?: number;
  /** the longest sleep between two looks at the file; a positive integer of ms */
  pollMs?: number;
  /** the largest report accepted; a positive integer of bytes. Never more than this + 1 is read */
  maxBytes?: number;
  /** wake early on a watch of the report's directory (default true); polling stays the fallback */
  watch?: boolean;
  /** aborting it rejects the wait with `aborted` */
  signal?: AbortSignal;
}>;

export type WaitBudget = Readonly<{
  timeoutMs: number;
  pollMs: number;
  maxBytes: number;
  watch: boolean;
  signal: AbortSignal | undefined;
}>;

// setTimeout fires at once (with a warning) for a delay above 2^31 - 1 ms, so a longer poll
// interval would turn into a busy loop.
const MAX_TIMER_MS = 2 ** 31 - 1;
// maxBytes + 1 bytes must fit in one Buffer.
const MAX_REPORT_BYTES = bufferConstants.MAX_LENGTH - 1;

const positiveInteger = (option: string, value: number, max: number): number => {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= max) return value;
  const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  throw new ClearanceError(
    'invalid-budget',
    `${option} must be a positive integer no greater than ${max}, got ${shown}`,
    { option, value: shown, max },
  );
};

/** The budget a wait runs under: the defaults filled in, every figure checked before anything is read. */
export const resolveBudget = (options: WaitOptions = {}): WaitBudget => ({
  timeoutMs: positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, Number.MAX_SAFE_INTEGER),
  pollMs: positiveInteger('pollMs', options.pollMs ?? DEFAULT_POLL_MS, MAX_TIMER_MS),
  maxBytes: positiveInteger('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES, MAX_REPORT_BYTES),
  watch: options.watch ?? true,
  signal: options.signal,
});
