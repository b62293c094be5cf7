import type { Command } from 'commander';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_POLL_MS,
  DEFAULT_TIMEOUT_MS,
  type WaitOptions,
} from '../handoff/wait-budget.js';
import { parsePositiveInt } from './option-values.js';

export type WaitFlags = { timeoutMs?: number; pollMs?: number; maxBytes?: number };

/** The wait's budget flags, shared by `wait` and `record --wait`. */
export const withWaitFlags = (command: Command): Command =>
  command
    .option(
      '--timeout-ms <ms>',
      `the whole wait, one deadline (default ${DEFAULT_TIMEOUT_MS})`,
      parsePositiveInt,
    )
    .option(
      '--poll-ms <ms>',
      `the longest sleep between looks; a directory watch wakes it sooner (default ${DEFAULT_POLL_MS})`,
      parsePositiveInt,
    )
    .option(
      '--max-bytes <n>',
      `the largest report accepted (default ${DEFAULT_MAX_BYTES})`,
      parsePositiveInt,
    );

export const waitOptionsOf = (flags: WaitFlags): WaitOptions => ({
  ...(flags.timeoutMs === undefined ? {} : { timeoutMs: flags.timeoutMs }),
  ...(flags.pollMs === undefined ? {} : { pollMs: flags.pollMs }),
  ...(flags.maxBytes === undefined ? {} : { maxBytes: flags.maxBytes }),
});
