import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { HOSTILE, rawControls, readAsRunner } from '../support/actions-runner.js';
import { cli } from '../support/cli.js';
import { makeRepo, tempDir } from '../support/git-repo.js';
import { type ActionRun, REPO_ROOT, runAction } from './action-steps.js';
import { sarifValidationErrors } from './sarif-validator.js';

/**
 * action.yml, run as the runner runs it (action-steps.ts), in a real git repository on a real
 * review whose reviewer wrote hostile text in every field the door lets through. Its log is read as
 * the runner reads it. CLEARANCE_ACTION_PATH names a fresh clone of the action to run instead of
 * this checkout (.ci/run does): its install step then runs `npm ci` in it, as on a runner.
 */

const ACTION = process.env.CLEARANCE_ACTION_PATH ?? REPO_ROOT;
const RUN = 'pr-9';
const FILE = 'src/##[add-mask]x.js';

/** The clearance steps' log, as the runner reads the whole step: the install step's npm output aside. */
const clearanceLog = (run: ActionRun): string =>
  run.steps
    .filter((s) => s.name !== "Install clearance from the action's checkout")
    .map((s) => s.log)
    .join('');

describe('action.yml, as the Actions runner runs it', () => {
  it('installs clearance, records a hostile review and gates it: outputs, summary, JSON, SARIF and a log that acts only on annotations', async () => {
    const repo = makeRepo();
    repo.write(FILE, 'one();\ntwo();\n');
    repo.commitAll('base');
    repo.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    repo.write(FILE, 'one();\ntwo();\nthree();\n');
    const head = repo.commitAll('three');
    const runnerTemp = tempDir('clearance-runner-');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? runnerTemp,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: repo.dir,
      RUNNER_TEMP: runnerTemp,
      CLEARANCE_DIR: path.join(runnerTemp, 'clearance-store'),
      CLEARANCE_ACTOR: 'github-actions',
      NO_COLOR: '1',
    };
    const freshClone = !existsSync(path.join(ACTION, 'node_modules'));

    // no command: install, and clearance on PATH for the job's later steps
    const installed = runAction(ACTION, {}, repo.dir, env);
    expect(installed.steps.map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(installed.outputs).toEqual({ verdict: '', 'exit-code': '0', error: '', 'run-id': '' });
    expect(installed.path).toEqual([path.join(runnerTemp, 'clearance-bin')]);
    expect(existsSync(path.join(ACTION, 'dist', 'cli.js'))).toBe(true);
    if (freshClone) expect(installed.steps[0]?.log).toMatch(/added \d+ packages/);

    const opened = runAction(
      ACTION,
      { command: `open ${RUN} --policy default --repo . --base origin/main` },
      repo.dir,
      env,
    );
    // open's result names no status: the verdict comes with a result that does
    expect(opened.outputs).toEqual({ verdict: '', 'exit-code': '0', error: '', 'run-id': RUN });

    // the reviewer's report: commands, controls, bidi and markup in every field the door lets through
    const candidate = {
      file: FILE,
      line: 3,
      category: `correctness ${HOSTILE.legacyCommand}`,
      summary: `${HOSTILE.legacyCommand} ${HOSTILE.markup} ::add-mask::x`,
      severity: 'major',
      confirmed: true,
      evidence: `${HOSTILE.workflowCommands}${HOSTILE.stopCommands}${HOSTILE.terminal}${HOSTILE.bidi}`,
    };
    const report = path.join(runnerTemp, 'review.json');
    writeFileSync(
      report,
      JSON.stringify({ runId: RUN, round: 1, inputSha: head, completed: true, candidates: [candidate] }),
    );
    const recorded = runAction(ACTION, { command: `record ${RUN} --report ${report}` }, repo.dir, env);
    expect(recorded.failed, recorded.steps.map((s) => s.log).join('')).toBe(false);
    expect(recorded.outputs).toMatchObject({ verdict: 'open', 'exit-code': '0', 'run-id': RUN });

    const json = path.join(runnerTemp, 'gate.json');
    const sarif = path.join(runnerTemp, 'clearance.sarif');
    const gated = runAction(
      ACTION,
      { command: `gate ${RUN} --repo .`, 'json-file': json, 'sarif-file': sarif },
      repo.dir,
      env,
    );
    // the gate refuses: the action fails with clearance's status, after every output and file is written
    expect(gated.steps.map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'failed']);
    expect(gated.failed).toBe(true);
    expect(gated.outputs).toEqual({
      verdict: 'open',
      'exit-code': '1',
      error: 'not-converged',
      'run-id': RUN,
    });
    const direct = await cli(['gate', RUN, '--repo', repo.dir, '--json'], {
      env: { CLEARANCE_DIR: env.CLEARANCE_DIR },
    });
    expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual(direct.json);
    const log = JSON.parse(readFileSync(sarif, 'utf8'));
    expect(sarifValidationErrors(log)).toEqual([]);
    expect(
      log.runs[0].results.map((r: { properties: { findingId: string } }) => r.properties.findingId),
    ).toEqual([findingId(candidate)]);
    const summary = gated.steps.find((s) => s.name === 'clearance')?.summary ?? '';
    expect(summary).toContain(`## clearance: pr\\-9 is open`);
    expect(summary).toContain('**Gate: refused (not\\-converged).**');

    // every log read as the runner reads it: it acts on clearance's annotations and nothing else
    for (const [run, meant] of [
      [installed, []],
      [opened, []],
      [recorded, []],
      [gated, ['error', 'error']],
    ] as const) {
      const text = clearanceLog(run);
      const read = readAsRunner(text);
      expect(read.acted).toEqual(meant);
      expect(read.outside.filter((l) => l !== '')).toHaveLength(meant.length);
      expect(read.regions.every((r) => r.resumed)).toBe(true);
      expect(rawControls(text)).toEqual([]);
    }
    // the annotation names the reviewer's file as it is, `##[` and all, and carries the summary
    const annotation = readAsRunner(clearanceLog(gated)).outside[1] ?? '';
    expect(
      annotation.startsWith(`::error file=${FILE},line=3,title=blocking major correctness ##[error]boom::`),
    ).toBe(true);
    // the reviewer's text is in the log, where the runner acts on nothing
    const shown = readAsRunner(clearanceLog(recorded))
      .regions.flatMap((r) => r.lines)
      .join('\n');
    expect(shown).toContain('##\\u005berror]boom');
    const tokens = [recorded, gated].flatMap((r) =>
      readAsRunner(clearanceLog(r)).regions.map((g) => g.token),
    );
    expect(new Set(tokens).size).toBe(tokens.length);
  }, 900_000);
});
