import { type Budget, COST_KEYS, type Cost } from '../../events/policy.js';
import { type Check, fail, ok } from './rule-answer.js';

export const addCost = (a: Cost, b: Cost): Cost => {
  const sum: { -readonly [K in keyof Cost]: number } = {};
  for (const key of COST_KEYS) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
};

const show = (key: (typeof COST_KEYS)[number], n: number) =>
  key === 'usd' ? `$${n.toFixed(2)}` : `${n} ${key}`;

/** An amount of any unit (spent, estimated or allowed) is a finite number >= 0. */
export const amountIsReal = (n: number): boolean => Number.isFinite(n) && n >= 0;

/** A cost is what was spent: finite and not negative, in every unit it names. */
export const costIsReal = (cost: Cost, path: ReadonlyArray<string>): Check => {
  for (const key of COST_KEYS) {
    const n = cost[key];
    if (n !== undefined && !amountIsReal(n)) {
      return fail('invalid-cost', `${[...path, key].join('.')} is ${n}: a cost is a finite number >= 0`, [
        ...path,
        key,
      ]);
    }
  }
  return ok;
};

/** A report's cost (round or contribution) is a cost like any other: finite and >= 0 in each unit. */
export const reportCostIsReal = (report: Readonly<{ cost?: Cost }>): Check =>
  report.cost === undefined ? ok : costIsReal(report.cost, ['report', 'cost']);

/** The first unit in which `spent + extra` goes past the budget, described; null when within. */
export const overrun = (budget: Budget, spent: Cost, extra: Cost = {}): string | null => {
  for (const key of COST_KEYS) {
    const limit = budget[key];
    if (limit === undefined) continue;
    const used = spent[key] ?? 0;
    const wanted = extra[key] ?? 0;
    if (used + wanted > limit) {
      return `${show(key, used)} spent${wanted > 0 ? ` + ${show(key, wanted)} more` : ''} of a budget of ${show(key, limit)}`;
    }
  }
  return null;
};

/** The first unit in which nothing is left (spent at or past the budget); null when some remains in every unit. */
export const depleted = (budget: Budget, spent: Cost): string | null => {
  for (const key of COST_KEYS) {
    const limit = budget[key];
    if (limit !== undefined && (spent[key] ?? 0) >= limit)
      return `${show(key, spent[key] ?? 0)} spent of a budget of ${show(key, limit)}`;
  }
  return null;
};
