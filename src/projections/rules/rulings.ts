import * as E from '#either';
import type { Ed25519Verify } from '../../events/ed25519.js';
import type { FindingRuled, RoundsExtended } from '../../events/event.js';
import type { Rejection } from '../../events/rejection.js';
import { checkRulingSignature } from '../../events/ruling-signature.js';
import { putFinding } from '../finding-index.js';
import { maxRoundsOf, type RunState } from '../state.js';
import { last, push } from '../vec.js';
import { withRuling } from './disputes.js';
import { namedOpenFinding } from './finding-ref.js';
import { fail, isBlank } from './rule-answer.js';

/**
 * Past the cap, or after a stall, only a person decides: these are accepted only once the run is
 * blocked, with a name and a reason.
 */
const blockedRun = (state: RunState, what: string): E.Either<Rejection, void> => {
  if (state.run === null) return fail('not-opened', 'the run has no run.opened event');
  if (state.status !== 'blocked') {
    return fail(
      'not-blocked',
      `run ${state.run.runId} is ${state.status}, not blocked: ${what} is for a person once the run is blocked (at its cap of ${maxRoundsOf(state)} rounds, or stalled)`,
    );
  }
  return E.right(undefined);
};

const signed = (data: Readonly<{ why: string; by: string }>): E.Either<Rejection, void> => {
  if (isBlank(data.by)) return fail('empty-field', 'a person must sign it: by is empty', ['by']);
  if (isBlank(data.why)) return fail('empty-field', 'a person must say why: why is empty', ['why']);
  return E.right(undefined);
};

/**
 * Under a policy that pins signers, the decision is signed by the key of the signer it names, for
 * this place of this run (`checkRulingSignature`): the key it was signed with, or the refusal. The
 * line the event follows is its envelope's `prev`, known whenever it comes from a log or an append.
 */
const signedBy = (
  state: RunState,
  event: FindingRuled | RoundsExtended,
  verify: Ed25519Verify | undefined,
): E.Either<Rejection, string | null> => {
  const run = state.run;
  if (run === null) return E.right(null);
  const prev = (event as { readonly prev?: unknown }).prev;
  const checked = checkRulingSignature(
    run.policy,
    run.runId,
    event.type,
    event.data,
    typeof prev === 'string' ? prev : undefined,
    verify,
  );
  return 'code' in checked ? E.left(checked) : E.right(checked.signedBy);
};

/**
 * `finding.ruled`: a person closes an open finding of a blocked run. When nothing blocking stays
 * open and the last round was complete, the run converges — by that person's ruling, on the record.
 */
export const onFindingRuled = (
  state: RunState,
  event: FindingRuled,
  verify: Ed25519Verify | undefined,
): E.Either<Rejection, RunState> => {
  const checks = [blockedRun(state, 'a ruling'), signed(event.data)];
  for (const check of checks) if (E.isLeft(check)) return check;
  const { findingId, status, why, by } = event.data;
  const named = namedOpenFinding(
    state.findings,
    findingId,
    "the ruling's finding",
    ['findingId'],
    'ruled on',
  );
  if (E.isLeft(named)) return named;
  const finding = named.right;
  // a decision the rules would take, then whether its signer made it, here
  const key = signedBy(state, event, verify);
  if (E.isLeft(key)) return key;
  // a dispute no round ruled on (the rounds ended without a report) is answered by this ruling
  const findings = putFinding(
    state.findings,
    withRuling(
      {
        ...finding,
        status,
        steps: push(finding.steps, { round: state.round, how: 'ruled' as const, status, evidence: why, by }),
      },
      { round: state.round, status, evidence: why, by },
    ),
  );
  const lastComplete = last(state.outcomes)?.result === 'complete';
  const converges = findings.openBlocking === 0 && lastComplete;
  return E.right({
    ...state,
    findings,
    rulings: push(state.rulings, {
      round: state.round,
      findingId,
      status,
      why,
      by,
      ...(key.right === null ? {} : { signedBy: key.right }),
    }),
    ...(converges ? { status: 'converged' as const, convergedBy: { by, why } } : {}),
    ...(state.disputed.includes(findingId)
      ? { disputed: state.disputed.filter((id) => id !== findingId) }
      : {}),
  });
};

/**
 * `rounds.extended`: a person gives a blocked run more rounds; it is open again until the new cap.
 * A stall is lifted too, and stalls are counted afresh from here (rules/stall.ts).
 */
export const onRoundsExtended = (
  state: RunState,
  event: RoundsExtended,
  verify: Ed25519Verify | undefined,
): E.Either<Rejection, RunState> => {
  const checks = [blockedRun(state, 'an extension'), signed(event.data)];
  for (const check of checks) if (E.isLeft(check)) return check;
  const { rounds, why, by } = event.data;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) {
    return fail(
      'invalid-extension',
      `rounds is ${rounds}: an extension adds an integer from 1 to 100 rounds`,
      ['rounds'],
    );
  }
  const key = signedBy(state, event, verify);
  if (E.isLeft(key)) return key;
  return E.right({
    ...state,
    status: 'open',
    stall: null,
    extraRounds: state.extraRounds + rounds,
    extensions: push(state.extensions, {
      round: state.round,
      rounds,
      why,
      by,
      ...(key.right === null ? {} : { signedBy: key.right }),
    }),
  });
};
