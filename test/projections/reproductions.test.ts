import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  contributionRecorded,
  type DomainEvent,
  explain,
  feedbackMarkdown,
  findingOf,
  nextMove,
  reproductionsToRun,
  roundRecorded,
  sha256Hex,
  toArray,
} from '../../src/index.js';
import { alreadyRecorded } from '../../src/projections/rules/retry.js';
import { candidate, captured, decision, idOf, opened, report, reproduced, sha } from '../support/builders.js';
import { decideMerge, notedTrail } from '../support/decider.js';
import { given } from '../support/given.js';

const repro = candidate({ reproduction: { command: 'npm test -- service', expected: 'fails with EMFILE' } });
const plain = candidate({ file: 'src/other.js', summary: 'Off by one' });
const REPRO = idOf(repro);

const round1 = [opened(), captured(1, 'A'), roundRecorded(report(1, 'A', { candidates: [repro, plain] }))];
const round2Captured = [...round1, captured(2, 'B', { touched: [repro.file, plain.file] })];
const OUTPUT = sha256Hex('FAIL src/service.test.js');

describe('a re-review re-runs the last round’s reproductions first', () => {
  describe('next', () => {
    it('asks for a capture first: there is nothing to re-run them on yet', () => {
      expect(nextMove(given(...round1).state)).toMatchObject({ action: 'capture', round: 2 });
    });

    it('once the input is captured, answers rerun-reproductions with each finding and its reproduction', () => {
      const next = nextMove(given(...round2Captured).state);
      expect(next).toMatchObject({
        action: 'rerun-reproductions',
        round: 2,
        inputSha: sha('B'),
        reproductions: [
          {
            findingId: REPRO,
            command: 'npm test -- service',
            expected: 'fails with EMFILE',
            status: 'open',
            outcome: null,
          },
        ],
      });
    });

    it('goes on to the stages once every reproduction has an outcome for this input', () => {
      const state = given(...round2Captured, reproduced(2, 'B', REPRO, 'still-fails')).state;
      expect(nextMove(state)).toMatchObject({ action: 'run-stage', round: 2, stage: 'planning' });
    });

    it('asks again after a new capture: an outcome holds for the input it ran on', () => {
      const state = given(
        ...round2Captured,
        reproduced(2, 'B', REPRO, 'still-fails'),
        captured(2, 'C', { touched: [repro.file, plain.file] }),
      ).state;
      expect(nextMove(state)).toMatchObject({ action: 'rerun-reproductions', inputSha: sha('C') });
    });

    it('re-runs a finding the last round said was fixed (is it gone?), not one fixed before that', () => {
      const fixedInRound2 = [
        ...round2Captured,
        reproduced(2, 'B', REPRO, 'no-longer-fails'),
        roundRecorded(report(2, 'B', { decisions: [decision(repro, 'fixed'), decision(plain, 'open')] })),
        captured(3, 'C', { touched: [plain.file] }),
      ];
      expect(reproductionsToRun(given(...fixedInRound2).state)).toEqual([
        expect.objectContaining({ findingId: REPRO, status: 'fixed', outcome: null }),
      ]);
      const round3 = [
        ...fixedInRound2,
        reproduced(3, 'C', REPRO, 'no-longer-fails'),
        roundRecorded(report(3, 'C', { decisions: [decision(plain, 'open')] })),
        captured(4, 'D', { touched: [plain.file] }),
      ];
      expect(nextMove(given(...round3).state).action).not.toBe('rerun-reproductions');
    });
  });

  describe('reproduction.recorded', () => {
    it('keeps the outcome, its round, input and output', () => {
      const after = given(...round2Captured)
        .whenEvent(reproduced(2, 'B', REPRO, 'still-fails', OUTPUT))
        .accepts();
      expect(toArray(after.reruns)).toEqual([
        { round: 2, inputSha: sha('B'), findingId: REPRO, outcome: 'still-fails', outputSha: OUTPUT },
      ]);
    });

    it('the very same outcome again is a retry (already recorded), the other outcome is refused', () => {
      const { state } = given(...round2Captured, reproduced(2, 'B', REPRO, 'still-fails', OUTPUT));
      expect(alreadyRecorded(state, reproduced(2, 'B', REPRO, 'still-fails', OUTPUT))).toBe(true);
      expect(alreadyRecorded(state, reproduced(2, 'B', REPRO, 'no-longer-fails'))).toBe(false);
      expect(alreadyRecorded(state, reproduced(2, 'C', REPRO, 'still-fails'))).toBe(false);
    });

    it('refuses an unknown finding, naming the open ones', () => {
      given(...round2Captured)
        .whenEvent(reproduced(2, 'B', 'f'.repeat(64), 'still-fails'))
        .rejects('unknown-finding', /is not a finding of this run/);
    });

    it('refuses it before the next round’s input is captured', () => {
      given(...round1)
        .whenEvent(reproduced(2, 'B', REPRO, 'still-fails'))
        .rejects('no-revision', /capture the input/);
    });

    it('refuses another round, another input, or an output that is no SHA-256', () => {
      given(...round2Captured)
        .whenEvent(reproduced(3, 'B', REPRO, 'still-fails'))
        .rejects('wrong-round');
      given(...round2Captured)
        .whenEvent(reproduced(2, 'Z', REPRO, 'still-fails'))
        .rejects('wrong-input');
      given(...round2Captured)
        .whenEvent(reproduced(2, 'B', REPRO, 'still-fails', 'not-a-sha'))
        .rejects('empty-field', /outputSha/);
    });
  });

  describe('a fixed decision', () => {
    const failing = [...round2Captured, reproduced(2, 'B', REPRO, 'still-fails')];
    const fixedReport = report(2, 'B', { decisions: [decision(repro, 'fixed'), decision(plain, 'open')] });

    it('is refused while the reproduction still fails on this input; open is accepted', () => {
      given(...failing)
        .whenReport(fixedReport)
        .rejects('reproduction-still-fails', /decisions\[0\]/);
      const open = report(2, 'B', { decisions: [decision(repro, 'open'), decision(plain, 'open')] });
      expect(
        findingOf(
          given(...failing)
            .whenReport(open)
            .accepts(),
          REPRO,
        )?.status,
      ).toBe('open');
    });

    it('is accepted once it no longer fails, on a new input', () => {
      const state = given(
        ...failing,
        captured(2, 'C', { touched: [repro.file, plain.file] }),
        reproduced(2, 'C', REPRO, 'no-longer-fails'),
      )
        .whenReport(report(2, 'C', { decisions: [decision(repro, 'fixed'), decision(plain, 'open')] }))
        .accepts();
      expect(findingOf(state, REPRO)?.status).toBe('fixed');
    });

    it('is refused in a reviewer’s contribution', () => {
      given(...failing)
        .whenEvent(contributionRecorded(fixedReport, 'ada'))
        .rejects('reproduction-still-fails');
    });

    it('is refused in a merged round, even when the contribution came before the re-run', () => {
      const events: DomainEvent[] = [
        ...round2Captured,
        contributionRecorded(fixedReport, 'ada'),
        reproduced(2, 'B', REPRO, 'still-fails'),
      ];
      const merge = decideMerge(given(...events).state);
      expect(E.isLeft(merge) && merge.left.code).toBe('reproduction-still-fails');
    });
  });

  describe('the views', () => {
    const events = [
      ...round2Captured,
      reproduced(2, 'B', REPRO, 'still-fails', OUTPUT),
      roundRecorded(report(2, 'B', { decisions: [decision(repro, 'open'), decision(plain, 'open')] })),
    ];

    it('feedback lists each outcome, and those still to re-run', () => {
      const md = feedbackMarkdown(given(...events).state, 'run.jsonl');
      expect(md).toContain('### Reproductions re-run');
      expect(md).toContain(
        `- \`${REPRO.slice(0, 12)}\` **src/service.js:10** round 2: still fails: a \`fixed\` decision on it is refused for this input (output ${OUTPUT.slice(0, 12)})`,
      );
      const pending = feedbackMarkdown(
        given(...events, captured(3, 'C', { touched: [repro.file] })).state,
        'run.jsonl',
      );
      expect(pending).toContain("1 reproduction(s) not yet re-run on round 3's input");
    });

    it('explain lists every re-run; replay’s trail says what each did', () => {
      expect(explain(given(...events).state).reruns).toEqual([
        { round: 2, inputSha: sha('B'), findingId: REPRO, outcome: 'still-fails', outputSha: OUTPUT },
      ]);
      const note = notedTrail(events).find((t) => t.type === 'reproduction.recorded')?.note;
      expect(note).toBe(
        `reproduction of ${REPRO.slice(0, 12)} re-run on ${sha('B').slice(0, 12)}: still fails, output ${OUTPUT.slice(0, 12)}`,
      );
    });
  });
});
