import * as E from 'fp-ts/lib/Either.js';
import { refusal } from '../errors.js';
import type { DomainEvent, RoundEndResult, RulingSignature } from '../events/event.js';
import type { Cost } from '../events/policy.js';
import { tokenCountRejection } from '../events/token-count.js';
import { resolveFindingRef } from '../projections/rules/finding-ref.js';
import type { AppendResult } from '../store/append.js';
import { type StoreRef, storeOf } from '../store/store.js';
import { archiveForEvent } from './archive.js';
import type { ActorOptions } from './capture.js';

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

/** Append one event for the run's round in progress, its number read under the lock. */
const inRoundInProgress = (
  store: StoreRef,
  runId: string,
  event: (round: number) => DomainEvent,
  options: ActorOptions,
): Promise<AppendResult> =>
  storeOf(store).append(runId, (state) => E.right([event(state.round + 1)]), options);

export const startStage = async (
  store: StoreRef,
  runId: string,
  stage: Readonly<{ stage: string; commands?: ReadonlyArray<string>; estimate?: Cost }>,
  options: ActorOptions,
): Promise<AppendResult> => {
  refuseFractionalTokens(stage.estimate, 'estimate');
  return inRoundInProgress(
    store,
    runId,
    (round) => ({
      type: 'stage.started',
      data: {
        round,
        stage: stage.stage,
        commands: [...(stage.commands ?? [])],
        ...(stage.estimate === undefined ? {} : { estimate: stage.estimate }),
      },
    }),
    options,
  );
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
  return inRoundInProgress(
    store,
    runId,
    (round) => ({
      type: 'stage.finished',
      data: { round, stage: stage.stage, outputSha, cost: stage.cost ?? {}, runner: stage.runner },
    }),
    options,
  );
};

export const failStage = async (
  store: StoreRef,
  runId: string,
  stage: Readonly<{ stage: string; reason: string; cost?: Cost; runner: string }>,
  options: ActorOptions,
): Promise<AppendResult> => {
  refuseFractionalTokens(stage.cost, 'cost');
  return inRoundInProgress(
    store,
    runId,
    (round) => ({
      type: 'stage.failed',
      data: { round, stage: stage.stage, reason: stage.reason, cost: stage.cost ?? {}, runner: stage.runner },
    }),
    options,
  );
};

export const endRound = (
  store: StoreRef,
  runId: string,
  end: Readonly<{ result: RoundEndResult; reason: string }>,
  options: ActorOptions,
): Promise<AppendResult> =>
  inRoundInProgress(store, runId, (round) => ({ type: 'round.ended', data: { round, ...end } }), options);

/** Past the cap, a person closes an open finding, with their name and their reason. */
export const ruleFinding = (
  store: StoreRef,
  runId: string,
  ruling: Readonly<{
    finding: string;
    status: 'fixed' | 'withdrawn';
    why: string;
    by: string;
    /** under a policy that pins signers: the signature over this ruling at this place of the log */
    signature?: RulingSignature;
  }>,
  options: ActorOptions & Readonly<{ expectedSeq?: number }>,
): Promise<AppendResult> =>
  storeOf(store).append(
    runId,
    (state) =>
      E.right([
        {
          type: 'finding.ruled',
          data: {
            // a unique prefix of 8+ hex characters becomes the full id; evolve refuses anything else
            findingId: resolveFindingRef(state.findings, ruling.finding),
            status: ruling.status,
            why: ruling.why,
            by: ruling.by,
            ...(ruling.signature === undefined ? {} : { signature: ruling.signature }),
          },
        },
      ]),
    options,
  );

/** Past the cap, a person gives the run more rounds, with their name and their reason. */
export const extendRun = (
  store: StoreRef,
  runId: string,
  extension: Readonly<{ rounds: number; why: string; by: string; signature?: RulingSignature }>,
  options: ActorOptions & Readonly<{ expectedSeq?: number }>,
): Promise<AppendResult> =>
  storeOf(store).append(runId, [{ type: 'rounds.extended', data: { ...extension } }], options);
