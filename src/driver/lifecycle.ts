import { refusal } from '../errors.js';
import type { RoundEndResult, RulingSignature } from '../events/event.js';
import type { Cost } from '../events/policy.js';
import { tokenCountRejection } from '../events/token-count.js';
import type { FindingRuling } from '../projections/commands.js';
import type { AppendResult } from '../store/append.js';
import type { StoreRef } from '../store/store.js';
import { archiveForEvent } from './archive.js';
import type { ActorOptions } from './capture.js';
import { appendCommand } from './command.js';

/**
 * The lifecycle of a round, for a driver: each stage declared when it starts (its commands and
 * estimate are checked against consent and budget), finished with its output archived first, or
 * failed (it will run again); and a round that ends without a complete report, with its reason.
 * The round is always the run's round in progress, read under the lock.
 */

/**
 * A stage's cost or estimate is someone's input (a flag, an MCP argument, a library caller): its
 * `tokens` must be a whole number (`invalid-cost`), checked here, the door every stage passes,
 * before anything is archived or appended.
 */
const refuseFractionalTokens = (cost: Cost | undefined, key: 'cost' | 'estimate'): void => {
  const refused = cost === undefined ? undefined : tokenCountRejection(cost, `stage ${key}`, [key]);
  if (refused !== undefined) throw refusal(refused);
};

export const startStage = async (
  store: StoreRef,
  runId: string,
  stage: Readonly<{ stage: string; commands?: ReadonlyArray<string>; estimate?: Cost }>,
  options: ActorOptions,
): Promise<AppendResult> => {
  refuseFractionalTokens(stage.estimate, 'estimate');
  return appendCommand(store, runId, { kind: 'start-stage', stage }, options);
};

export const finishStage = async (
  store: StoreRef,
  runId: string,
  stage: Readonly<{ stage: string; output: Uint8Array; cost?: Cost; runner: string }>,
  options: ActorOptions,
): Promise<AppendResult> => {
  refuseFractionalTokens(stage.cost, 'cost');
  // the output is on disk, fsynced, before any event names it
  const outputSha = await archiveForEvent(store, runId, stage.output);
  const { output: _, ...finished } = stage;
  return appendCommand(store, runId, { kind: 'finish-stage', stage: { ...finished, outputSha } }, options);
};

export const failStage = async (
  store: StoreRef,
  runId: string,
  stage: Readonly<{ stage: string; reason: string; cost?: Cost; runner: string }>,
  options: ActorOptions,
): Promise<AppendResult> => {
  refuseFractionalTokens(stage.cost, 'cost');
  return appendCommand(store, runId, { kind: 'fail-stage', stage }, options);
};

export const endRound = (
  store: StoreRef,
  runId: string,
  end: Readonly<{ result: RoundEndResult; reason: string }>,
  options: ActorOptions,
): Promise<AppendResult> => appendCommand(store, runId, { kind: 'end-round', end }, options);

/** Past the cap, a person closes an open finding, with their name and their reason. */
export const ruleFinding = (
  store: StoreRef,
  runId: string,
  ruling: FindingRuling,
  options: ActorOptions & Readonly<{ expectedSeq?: number }>,
): Promise<AppendResult> => appendCommand(store, runId, { kind: 'rule', ruling }, options);

/** Past the cap, a person gives the run more rounds, with their name and their reason. */
export const extendRun = (
  store: StoreRef,
  runId: string,
  extension: Readonly<{ rounds: number; why: string; by: string; signature?: RulingSignature }>,
  options: ActorOptions & Readonly<{ expectedSeq?: number }>,
): Promise<AppendResult> =>
  // decided under the lock like every other event (it names no round and no finding)
  appendCommand(store, runId, { kind: 'extend', extension }, options);
