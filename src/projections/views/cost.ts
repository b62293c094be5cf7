import { COST_KEYS, type Cost } from '../../events/policy.js';
import { addCost } from '../rules/cost-bounds.js';
import type { CostEntry, RunState } from '../state.js';
import { toArray } from '../vec.js';

export type CostReport = Readonly<{
  spent: Cost;
  budget: Cost;
  /** what is left in every unit the budget names (never below zero) */
  remaining: Cost;
  byRound: ReadonlyArray<Readonly<{ round: number; spent: Cost; stages: ReadonlyArray<CostEntry> }>>;
  byRunner: ReadonlyArray<Readonly<{ runner: string; spent: Cost }>>;
}>;

/** What the run spent, per round and stage, and by whom. */
export const costReport = (state: RunState): CostReport => {
  const budget = state.run?.policy.budget ?? {};
  const rounds = new Map<number, CostEntry[]>();
  const runners = new Map<string, Cost>();
  for (const entry of toArray(state.costs)) {
    const stages = rounds.get(entry.round);
    if (stages === undefined) rounds.set(entry.round, [entry]);
    else stages.push(entry);
    runners.set(entry.runner, addCost(runners.get(entry.runner) ?? {}, entry.cost));
  }
  const remaining: { -readonly [K in keyof Cost]: number } = {};
  for (const key of COST_KEYS) {
    const limit = budget[key];
    if (limit !== undefined) remaining[key] = Math.max(0, limit - (state.spent[key] ?? 0));
  }
  return {
    spent: state.spent,
    budget,
    remaining,
    byRound: [...rounds].map(([round, stages]) => ({
      round,
      stages,
      spent: stages.reduce<Cost>((t, s) => addCost(t, s.cost), {}),
    })),
    byRunner: [...runners].map(([runner, spent]) => ({ runner, spent })),
  };
};
