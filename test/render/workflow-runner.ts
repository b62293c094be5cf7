import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { FINGERPRINT_KEY } from '../../src/render/sarif.js';
import { tempDir } from '../support/git-repo.js';
import { REPO_ROOT, runAction } from './action-steps.js';
import { sarifValidationErrors } from './sarif-validator.js';
import { expand, type Step, workflowOf } from './workflow-steps.js';

/**
 * A stand-in for a GitHub runner, enough for docs/github-actions.md: GitHub's environment
 * variables, `${{ … }}` expressions filled in, `run:` steps through bash as GitHub runs them (with
 * GITHUB_STEP_SUMMARY, GITHUB_ENV and GITHUB_PATH honoured), `if: always()`, clearance's own action
 * run from this checkout as the runner runs a composite action (action-steps.ts), and the other
 * `uses:` steps done by hand (checkout of the head commit, the cache as a directory, the SARIF
 * upload as the reference validator's check).
 */

export const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/github-actions.md');
export const PR = '42';

type SarifResult = { partialFingerprints: Record<string, string>; baselineState: string; kind: string };

export type StepRun = Readonly<{
  step: Step;
  status: 'ok' | 'failed' | 'skipped' | 'emulated';
  /** what the upload step would have sent to code scanning */
  sarif?: { runs: Array<{ results: SarifResult[] }> };
  stdout: string;
  summary: string;
}>;

/**
 * One workflow run for a push of the pull request: a fresh RUNNER_TEMP, the store restored from
 * and saved to `cache` as the cache steps would, every `run:` step through bash as GitHub runs it.
 */
export const runWorkflow = (
  repoDir: string,
  head: string,
  runNumber: number,
  cache: string,
  plan: string,
): StepRun[] => {
  const workflow = workflowOf(readFileSync(DOC, 'utf8'));
  const runnerTemp = tempDir('clearance-runner-');
  const github = {
    'github.event.pull_request.number': PR,
    'github.event.pull_request.base.ref': 'main',
    'github.event.pull_request.head.sha': head,
    'github.run_id': String(1000 + runNumber),
    'runner.temp': runnerTemp,
  };
  const jobEnv = Object.fromEntries(Object.entries(workflow.env).map(([k, v]) => [k, expand(v, github)]));
  const expressions = {
    ...github,
    ...Object.fromEntries(Object.entries(jobEnv).map(([k, v]) => [`env.${k}`, v])),
  };
  let env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? runnerTemp,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_REPOSITORY: 'octo/service',
    GITHUB_REF: `refs/pull/${PR}/merge`,
    GITHUB_HEAD_REF: 'feature',
    GITHUB_BASE_REF: 'main',
    GITHUB_SHA: head,
    GITHUB_RUN_ID: String(1000 + runNumber),
    GITHUB_WORKSPACE: repoDir,
    RUNNER_TEMP: runnerTemp,
    REVIEW_PLAN: plan,
    ...jobEnv,
  };
  const results: StepRun[] = [];
  let failed = false;
  workflow.steps.forEach((step, n) => {
    const withValues = Object.fromEntries(
      Object.entries(step.with).map(([k, v]) => [k, expand(v, expressions)]),
    );
    if (failed && step.if !== 'always()') {
      results.push({ step, status: 'skipped', stdout: '', summary: '' });
      return;
    }
    if (step.uses?.startsWith('clearance-dev/clearance@') === true) {
      // clearance's own action: its steps, run from this checkout as the runner runs them
      const ran = runAction(REPO_ROOT, withValues, repoDir, env);
      if (ran.path.length > 0) env = { ...env, PATH: `${ran.path.join(':')}:${env.PATH}` };
      if (ran.failed) failed = true;
      results.push({
        step,
        status: ran.failed ? 'failed' : 'ok',
        stdout: ran.steps.map((s) => s.log).join(''),
        summary: ran.steps.map((s) => s.summary).join(''),
      });
      return;
    }
    if (step.uses !== null) {
      // the actions this test stands in for, doing what they do to the files
      if (step.uses.startsWith('actions/checkout@')) {
        execFileSync('git', ['-C', repoDir, 'checkout', '-q', '--detach', withValues.ref as string]);
        execFileSync('git', ['-C', repoDir, 'clean', '-qfdx']);
      } else if (step.uses.startsWith('actions/cache/restore@')) {
        if (existsSync(cache)) cpSync(cache, withValues.path as string, { recursive: true });
      } else if (step.uses.startsWith('actions/cache/save@')) {
        rmSync(cache, { recursive: true, force: true });
        cpSync(withValues.path as string, cache, { recursive: true });
      } else if (step.uses.startsWith('github/codeql-action/upload-sarif@')) {
        const sarif = JSON.parse(readFileSync(withValues.sarif_file as string, 'utf8')) as StepRun['sarif'];
        expect(sarifValidationErrors(sarif)).toEqual([]);
        results.push({ step, status: 'emulated', stdout: '', summary: '', sarif });
        return;
      } else if (!step.uses.startsWith('actions/setup-node@'))
        throw new Error(`no stand-in for ${step.uses}`);
      results.push({ step, status: 'emulated', stdout: '', summary: '' });
      return;
    }
    const summaryFile = path.join(runnerTemp, `_step_summary_${n}`);
    const envFile = path.join(runnerTemp, `_env_${n}`);
    writeFileSync(summaryFile, '');
    writeFileSync(envFile, '');
    const done = spawnSync(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run ?? '', expressions)],
      {
        cwd: repoDir,
        env: {
          ...env,
          GITHUB_STEP_SUMMARY: summaryFile,
          GITHUB_ENV: envFile,
          GITHUB_OUTPUT: path.join(runnerTemp, '_output'),
        },
        encoding: 'utf8',
      },
    );
    for (const line of readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')) {
      const at = line.indexOf('=');
      env = { ...env, [line.slice(0, at)]: line.slice(at + 1) };
    }
    if (done.status !== 0) failed = true;
    results.push({
      step,
      status: done.status === 0 ? 'ok' : 'failed',
      stdout: done.stdout,
      summary: readFileSync(summaryFile, 'utf8'),
    });
  });
  return results;
};

export const sarifResultFor = (runs: StepRun[], id: string): SarifResult => {
  const results = runs.find((r) => r.sarif !== undefined)?.sarif?.runs[0]?.results ?? [];
  const found = results.find((r) => r.partialFingerprints[FINGERPRINT_KEY] === id);
  if (found === undefined) throw new Error(`no SARIF result for ${id}`);
  return found;
};

export const stepNamed = (runs: StepRun[], name: string): StepRun => {
  const found = runs.find((r) => r.step.name === name);
  if (found === undefined) throw new Error(`no step ${name}`);
  return found;
};
