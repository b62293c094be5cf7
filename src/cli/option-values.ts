import type { Rename } from '@clearance/fold/internal/events/event.js';
import { COST_KEYS, type Cost } from '@clearance/fold/internal/events/policy.js';
import { InvalidArgumentError } from 'commander';

// The values of command-line options, each parsed where commander reads it. Apart from inputs.ts
// (which reads files and standard input, and brings the strict JSON parser with it): the program's
// own options need these at every start-up, and `--version` or `status` should load no JSON parser.

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

/**
 * `tokens=1200,usd=0.04,seconds=35`: a cost or an estimate, in any of three units. Only its form is
 * read here (known units, numbers); that `tokens` is a whole number is the stage's door
 * (driver/lifecycle.ts) and that each amount is finite and >= 0 the rule `costIsReal`
 * (rules/cost-bounds.ts), each refusing it `invalid-cost` like a cost from any other door.
 */
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
      Number.isNaN(n)
    ) {
      throw new InvalidArgumentError(
        `expected units=amount pairs such as tokens=1200,usd=0.04,seconds=35; got ${JSON.stringify(part)}`,
      );
    }
    cost[key.trim() as keyof Cost] = n;
  }
  return cost;
};
