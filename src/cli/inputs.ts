import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import { ClearanceError } from '../errors.js';
import type { Rename } from '../events/event.js';
import { COST_KEYS, type Cost } from '../events/policy.js';
import type { Io } from './context.js';

/** Repeatable options (`--touched a --touched b`) collect into an array. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const parseRename = (value: string, previous: Rename[] = []): Rename[] => {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1)
    throw new InvalidArgumentError(`expected OLD=NEW, got ${JSON.stringify(value)}`);
  return [...previous, { from: value.slice(0, at), to: value.slice(at + 1) }];
};

export const parsePositiveInt = (value: string): number => {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`expected a positive integer, got ${JSON.stringify(value)}`);
  }
  return Number(value);
};

export const parseNonNegativeInt = (value: string): number => {
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`expected an integer >= 0, got ${JSON.stringify(value)}`);
  }
  return Number(value);
};

const readStdin = async (io: Io): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
};

/** The text of `FILE`, or of standard input for `-`. A file that cannot be read is a usage error. */
export const readTextInput = async (source: string, io: Io, what: string): Promise<string> => {
  if (source === '-') return readStdin(io);
  try {
    return await readFile(source, 'utf8');
  } catch (e) {
    throw new ClearanceError('input-unreadable', `cannot read ${what} ${source}: ${(e as Error).message}`, {
      path: source,
    });
  }
};

/** Parse JSON text, naming the source when it is not JSON. */
export const parseJsonInput = (
  text: string,
  source: string,
  onError: (message: string) => ClearanceError,
): unknown => {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw onError(`${source === '-' ? 'standard input' : source} is not JSON: ${(e as Error).message}`);
  }
};

/** `tokens=1200,usd=0.04,seconds=35`: a cost or an estimate, in any of three units. */
export const parseCost = (value: string): Cost => {
  const cost: { -readonly [K in keyof Cost]: number } = {};
  for (const part of value.split(',')) {
    const [key, amount] = part.split('=');
    const n = Number(amount);
    if (
      key === undefined ||
      !(COST_KEYS as ReadonlyArray<string>).includes(key.trim()) ||
      amount === undefined ||
      amount.trim() === '' ||
      !Number.isFinite(n) ||
      n < 0
    ) {
      throw new InvalidArgumentError(
        `expected units=amount pairs such as tokens=1200,usd=0.04,seconds=35; got ${JSON.stringify(part)}`,
      );
    }
    cost[key.trim() as keyof Cost] = n;
  }
  return cost;
};
