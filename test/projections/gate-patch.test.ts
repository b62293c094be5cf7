import { describe, expect, it } from 'vitest';
import { type GateObservation, gateOf, roundRecorded } from '../../src/index.js';
import { captured, opened, report } from '../support/builders.js';
import { fold } from '../support/decider.js';

/**
 * `gate --base`: the view decides from what the door observed with git (each side's patch id
 * against its merge base with the base), and approves HEAD by patch only when both patches are
 * there and the same. The door's half is test/cli/gate-base.test.ts, with real rebases.
 */
const REVIEWED = 'c'.repeat(40);
const HEAD = 'd'.repeat(40);
const BASE = 'b'.repeat(40);
const capture = captured(1, 'A');
const { state } = fold([
  opened(),
  { ...capture, data: { ...capture.data, commit: REVIEWED, tree: 't'.repeat(40) } },
  roundRecorded(report(1, 'A')),
]);

const withPatches = (
  reviewed: NonNullable<GateObservation['patch']>['reviewed'],
  head: NonNullable<GateObservation['patch']>['head'],
): GateObservation => ({
  commit: HEAD,
  tree: 'e'.repeat(40),
  patch: { base: BASE, reviewed, head },
});

describe('the gate approves by patch only what makes the reviewed patch', () => {
  it('the run converged on the reviewed commit', () => {
    expect(state.status).toBe('converged');
    expect(gateOf(state, { commit: REVIEWED })).toMatchObject({ approved: true, boundBy: 'commit' });
  });

  it('the same patch id on both sides: approved by patch, naming the reviewed commit', () => {
    const verdict = gateOf(
      state,
      withPatches({ id: 'p'.repeat(40), mergeBase: 'm'.repeat(40) }, { id: 'p'.repeat(40), mergeBase: BASE }),
    );
    expect(verdict).toEqual({
      approved: true,
      inputSha: state.reviewed?.inputSha,
      boundBy: 'patch',
      byPatch: { commit: HEAD, reviewed: REVIEWED, base: BASE, patchId: 'p'.repeat(40) },
      message: expect.stringMatching(
        /^approved by patch: HEAD dddddddddddd is not the commit round 1 reviewed, cccccccccccc/,
      ),
    });
  });

  it('another patch: head-moved, saying the change differs', () => {
    expect(
      gateOf(
        state,
        withPatches({ id: 'p'.repeat(40), mergeBase: BASE }, { id: 'q'.repeat(40), mergeBase: BASE }),
      ),
    ).toMatchObject({
      approved: false,
      reason: 'head-moved',
      message: expect.stringMatching(/its patch \(patch-id qqqqqqqqqqqq\) is not the one reviewed/),
    });
  });

  it('a side with no patch to compare: head-moved, saying why, even when the other side has none either', () => {
    const none = { id: null, why: 'commit cccccccccccc has no merge base' } as const;
    expect(gateOf(state, withPatches(none, { id: 'p'.repeat(40), mergeBase: BASE }))).toMatchObject({
      approved: false,
      reason: 'head-moved',
      message: expect.stringMatching(
        /the reviewed commit's patch .* cannot be compared: commit cccccccccccc has no merge base/,
      ),
    });
    expect(gateOf(state, withPatches(none, { id: null, why: 'changes nothing' }))).toMatchObject({
      approved: false,
      reason: 'head-moved',
    });
  });

  it('no patch observed (no --base): head-moved as before', () => {
    expect(gateOf(state, { commit: HEAD, tree: 'e'.repeat(40) })).toMatchObject({
      approved: false,
      reason: 'head-moved',
      message: `HEAD is dddddddddddd, but round 1 reviewed cccccccccccc`,
    });
  });
});
