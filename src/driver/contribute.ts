import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, isClearanceError, refusal } from '../errors.js';
import type { AbsenceReason } from '../events/event.js';
import { REJECTION_CODES, rejection } from '../events/rejection.js';
import { parseReport, type RoundReport } from '../events/round-report.js';
import { waitForReportAt } from '../handoff/at.js';
import type { WaitOptions } from '../handoff/wait-budget.js';
import type { Missing } from '../projections/commands.js';
import type { AppendResult } from '../store/append.js';
import { foldIntactFromCheckpoint, type StoreRef, storeOf } from '../store/store.js';
import type { ActorOptions } from './capture.js';
import { appendCommand, decidedAt } from './command.js';

/**
 * Append one reviewer's parsed report for the round in progress (`contribution.recorded`), checked
 * by `evolve` under the lock like a round report: a refusal throws with the rejection and writes nothing.
 */
export const contribute = (
  store: StoreRef,
  runId: string,
  report: RoundReport,
  expert: string | undefined,
  options: ActorOptions,
): Promise<AppendResult> => appendCommand(store, runId, { kind: 'contribute', report, expert }, options);

/** `contribute` for untrusted JSON: its shape checked once (`parseReport`) first. */
export const contributeUntrusted = (
  store: StoreRef,
  runId: string,
  input: unknown,
  expert: string | undefined,
  options: ActorOptions,
): Promise<AppendResult> => {
  const parsed = parseReport(input);
  if (E.isLeft(parsed)) return Promise.reject(refusal(parsed.left));
  return contribute(store, runId, parsed.right, expert, options);
};

/**
 * Close the round in progress from its contributions: reviewers named in `missing`, and every
 * expert the policy expects who handed in nothing, are recorded absent; then the merged round.
 */
export const recordMerged = (
  store: StoreRef,
  runId: string,
  options: ActorOptions & Readonly<{ missing?: ReadonlyArray<Missing> }>,
): Promise<AppendResult> => {
  const { missing = [], ...actor } = options;
  return appendCommand(store, runId, { kind: 'merge', missing }, actor);
};

export type ExpertSource = Readonly<{ expert: string; path: string }>;

const ABSENCE_OF: Readonly<Record<string, AbsenceReason>> = {
  timeout: 'missing',
  aborted: 'missing',
  incomplete: 'malformed',
  malformed: 'malformed',
  oversized: 'oversized',
};

/**
 * `collect`: wait for every reviewer's published report under one deadline (each wait gets the
 * same budget, started together), append each contribution the moment it arrives and validates (a
 * crash mid-collection keeps what arrived), record a reviewer still missing, malformed, oversized
 * or refused by the rules at the deadline as absent with the reason, then close the round with the
 * merge. With no contribution at all the absences are recorded and the round stays open.
 */
export const collectContributions = async (
  store: StoreRef,
  runId: string,
  sources: ReadonlyArray<ExpertSource>,
  options: ActorOptions & Readonly<{ wait?: WaitOptions }>,
): Promise<AppendResult> => {
  const { wait = {}, ...actor } = options;
  const { state } = await foldIntactFromCheckpoint(store, runId);
  if (state.run === null) throw refusal(rejection('not-opened', `run ${runId} has no run.opened event`));
  if (state.capture === null) {
    throw refusal(
      rejection(
        'no-revision',
        `no revision was captured for round ${state.round + 1} of ${runId}: capture it first`,
        ['round'],
      ),
    );
  }
  const expected = { runId, round: state.round + 1, inputSha: state.capture.inputSha };
  const missing: Missing[] = [];
  let appending: Promise<unknown> = Promise.resolve();
  const one = async ({ expert, path }: ExpertSource): Promise<void> => {
    try {
      // in a store, each reviewer's report is its own row, keyed by the expert's name
      const collected = await waitForReportAt(path, expected, { ...wait, reviewer: expert });
      // appends run one after another, in arrival order
      const appended = appending.then(() => contribute(store, runId, collected.report, expert, actor));
      appending = appended.catch(() => undefined);
      await appended;
    } catch (error) {
      // a wait that failed, or a report the rules refused, is the reviewer's; anything else (the
      // lock, the store) is this process's failure and ends the collection
      const refusedByRule =
        isClearanceError(error) && (REJECTION_CODES as ReadonlyArray<string>).includes(error.code);
      if (!isClearanceError(error) || (!refusedByRule && ABSENCE_OF[error.code] === undefined)) throw error;
      const reason = ABSENCE_OF[error.code] ?? 'malformed';
      missing.push({ expert, reason, detail: error.message });
    }
  };
  await Promise.all(sources.map(one));
  await appending;
  const after = await foldIntactFromCheckpoint(store, runId);
  const heard = after.state.contributions.some((c) => c.round === expected.round);
  if (!heard) {
    // decided against that read: recorded absent for the round they were waited for, or refused
    await storeOf(store).append(runId, decidedAt(after.state, { kind: 'absent', missing }), actor);
    throw new ClearanceError(
      'timeout',
      `no reviewer handed in a usable report for round ${expected.round} of ${runId}: ${missing.map((m) => `${m.expert} ${m.reason}`).join(', ')}; they are recorded absent and the round stays open`,
      { missing },
    );
  }
  return recordMerged(store, runId, { ...actor, missing });
};
