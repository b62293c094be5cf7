import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/index.js';
import { findingId } from '../../src/index.js';
import { historyOf } from '../../src/render/run-history.js';
import { FINGERPRINT_KEY, sarifLog } from '../../src/render/sarif.js';
import { jsonText } from '../../src/text/untrusted.js';
import { ALL_HOSTILE, HOSTILE_STRINGS, rawControls, runnerCommands } from '../support/actions-runner.js';
import { cli } from '../support/cli.js';
import { evolve } from '../support/decider.js';
import { tempDir } from '../support/git-repo.js';
import { deferringRun, logged } from './hostile-runs.js';
import { sarifValidationErrors, sarifValidationErrorsOfEach } from './sarif-validator.js';
import { LEAK } from './scenario.js';

/**
 * A candidate deferred to a follow-up is on the record, so code scanning shows it too: a result of
 * level `note` (never an error or a warning: it blocks nothing), `new` in the round that deferred it,
 * its property bag saying it was deferred and why.
 */

type Result = {
  ruleId: string;
  kind: string;
  level: string;
  baselineState: string;
  message: { text: string };
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
};
type Log = { runs: Array<{ results: Result[]; tool: { driver: { rules: Array<{ id: string }> } } }> };

const sha = (label: string) => label.padEnd(40, '0');
const MINOR: Candidate = {
  ...LEAK,
  line: 30,
  severity: 'minor',
  summary: 'Name the timeout',
  category: 'style',
};
const OUTSIDE: Candidate = { ...LEAK, file: 'src/other.js', line: 3, summary: 'Unrelated leak' };

const deferredIn = (log: Log | undefined): Result[] =>
  log?.runs[0]?.results.filter((r) => r.properties.status === 'deferred') ?? [];

describe('clearance sarif: deferred candidates', () => {
  it('are notes: new in the round that deferred them, unchanged after, with why in their properties', async () => {
    const dir = tempDir('clearance-sarif-deferred-');
    const run = (args: string[], input?: string) =>
      cli(['--dir', dir, ...args], input === undefined ? {} : { input });
    const ok = async (args: string[], input?: string) => {
      const r = await run(args, input);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const policy = path.join(dir, 'policy.json');
    await writeFile(
      policy,
      JSON.stringify({
        name: 'rising',
        maxRounds: 3,
        newOutsideFix: 'defer',
        severities: { major: { blocks: true }, minor: { blocks: false, untilRound: 1 } },
      }),
    );
    const record = (report: object) =>
      ok(['record', 'd', '--report', '-'], JSON.stringify({ runId: 'd', completed: true, ...report }));
    await ok(['open', 'd', '--policy-file', policy, '--input-sha', sha('A')]);
    await record({ round: 1, inputSha: sha('A'), candidates: [LEAK] });
    await ok(['capture', 'd', '--input-sha', sha('B'), '--touched', LEAK.file]);
    const recorded = await record({
      round: 2,
      inputSha: sha('B'),
      reviewer: 'ada',
      candidates: [MINOR, OUTSIDE],
      decisions: [{ id: findingId(LEAK), status: 'open', evidence: 'still leaks' }],
    });
    // record says so at once, each with why
    expect(recorded.stdout).toContain(
      `deferred minor ${findingId(MINOR).slice(0, 12)} src/service.js:30 Name the timeout (minor is no longer admitted in round 2): kept for a follow-up`,
    );
    expect(recorded.stdout).toContain(
      `deferred major ${findingId(OUTSIDE).slice(0, 12)} src/other.js:3 Unrelated leak (new in round 2, in a file the last fix did not touch): kept for a follow-up`,
    );
    await ok(['capture', 'd', '--input-sha', sha('C'), '--touched', LEAK.file]);
    await record({
      round: 3,
      inputSha: sha('C'),
      decisions: [{ id: findingId(LEAK), status: 'fixed', evidence: 'closed in finally' }],
    });
    const sarif = async (round: number) =>
      JSON.parse((await ok(['sarif', 'd', '--round', String(round)])).stdout) as Log;
    const [one, two, three] = [await sarif(1), await sarif(2), await sarif(3)];
    expect(sarifValidationErrorsOfEach([one, two, three])).toEqual([[], [], []]);

    expect(deferredIn(one)).toEqual([]);
    expect(deferredIn(two)).toEqual([
      {
        ruleId: 'style',
        ruleIndex: 1,
        kind: 'fail',
        level: 'note',
        message: {
          text: 'Name the timeout (deferred to a follow-up: minor is admitted until round 1; this came in round 2)',
        },
        locations: [
          { physicalLocation: { artifactLocation: { uri: 'src/service.js' }, region: { startLine: 30 } } },
        ],
        partialFingerprints: { [FINGERPRINT_KEY]: findingId(MINOR) },
        baselineState: 'new',
        properties: {
          candidateId: findingId(MINOR),
          severity: 'minor',
          blocking: false,
          status: 'deferred',
          deferred: { round: 2, reason: 'until-round', untilRound: 1 },
          evidence: MINOR.evidence,
          reviewers: ['ada'],
          tags: ['minor', 'deferred'],
        },
      },
      expect.objectContaining({
        ruleId: 'correctness',
        level: 'note',
        baselineState: 'new',
        message: {
          text: 'Unrelated leak (deferred to a follow-up: new in round 2, in a file the last fix did not touch)',
        },
        properties: expect.objectContaining({
          status: 'deferred',
          blocking: false,
          deferred: { round: 2, reason: 'outside-fix', untilRound: null },
        }),
      }),
    ]);
    expect(two.runs[0]?.tool.driver.rules.map((r) => r.id)).toEqual(['correctness', 'style']);
    // a round later they are still on the record, unchanged; the finding beside them was fixed
    expect(deferredIn(three).map((r) => [r.partialFingerprints[FINGERPRINT_KEY], r.baselineState])).toEqual([
      [findingId(MINOR), 'unchanged'],
      [findingId(OUTSIDE), 'unchanged'],
    ]);
    expect(three.runs[0]?.results.filter((r) => r.level !== 'note').map((r) => r.level)).toEqual(['none']);
  });

  for (const h of [...HOSTILE_STRINGS, ALL_HOSTILE])
    it(`with hostile values in every field, a valid log whose bytes nothing acts on: ${JSON.stringify(h).slice(0, 30)}`, () => {
      const log = sarifLog(historyOf(evolve, logged(deferringRun(h), h)), {
        round: 2,
        toolVersion: '0.0.0-test',
      }) as Log;
      expect(sarifValidationErrors(log)).toEqual([]);
      const deferred = deferredIn(log);
      expect(deferred.map((r) => [r.level, r.properties.severity, r.properties.reviewers])).toEqual([
        ['note', `${h} late`, [h]],
        ['note', 'major', [h]],
      ]);
      expect(deferred[0]?.message.text).toBe(
        `${h} late (deferred to a follow-up: ${h} late is admitted until round 1; this came in round 2)`,
      );
      // as the CLI prints it: the same value parsed back, no command and no control in the bytes
      const printed = jsonText(log, 2);
      expect(JSON.parse(printed)).toEqual(log);
      expect(runnerCommands(printed)).toEqual([]);
      expect(rawControls(printed)).toEqual([]);
    });
});
