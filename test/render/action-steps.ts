import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { tempDir } from '../support/git-repo.js';

/**
 * The repository's `action.yml` run as the Actions runner runs a composite action: its inputs
 * (defaults, then the `with:` values), each step's `env:` and `working-directory:` with `${{ … }}`
 * filled in, its `run:` through `bash --noprofile --norc -eo pipefail` (GitHub's `shell: bash`),
 * a fresh GITHUB_OUTPUT file per step read back into `steps.<id>.outputs`, GITHUB_STEP_SUMMARY and
 * GITHUB_PATH honoured, and the steps after a failed one not run (the action has no `if:`; one
 * would fail here rather than be ignored). The action's outputs come from its `outputs:` values.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type ActionStep = Readonly<{
  name: string;
  id?: string;
  shell: string;
  run: string;
  env?: Readonly<Record<string, string>>;
  'working-directory'?: string;
}>;

type ActionFile = Readonly<{
  inputs: Readonly<Record<string, { default?: string; required?: boolean }>>;
  outputs: Readonly<Record<string, { value: string }>>;
  runs: Readonly<{ using: string; steps: ReadonlyArray<ActionStep> }>;
}>;

export type ActionStepRun = Readonly<{
  name: string;
  status: 'ok' | 'failed' | 'skipped';
  /** what the step printed, stdout then stderr: the runner reads both as the step's log */
  log: string;
  summary: string;
}>;

export type ActionRun = Readonly<{
  steps: ReadonlyArray<ActionStepRun>;
  outputs: Readonly<Record<string, string>>;
  /** what the steps put on PATH for the job's later steps (GITHUB_PATH) */
  path: ReadonlyArray<string>;
  /** the action failed: a step exited non-zero */
  failed: boolean;
}>;

export const readAction = (actionPath: string): ActionFile => {
  const action = parse(readFileSync(path.join(actionPath, 'action.yml'), 'utf8')) as ActionFile;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  for (const step of action.runs.steps) {
    const known = new Set(['name', 'id', 'shell', 'run', 'env', 'working-directory']);
    const unknown = Object.keys(step).filter((k) => !known.has(k));
    if (unknown.length > 0) throw new Error(`step ${step.name}: no stand-in for ${unknown.join(', ')}`);
    if (step.shell !== 'bash') throw new Error(`step ${step.name}: shell ${step.shell}`);
  }
  return action;
};

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
export const outputsOf = (text: string): Record<string, string> => {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const end = lines.indexOf(heredoc[2] as string, i + 1);
      outputs[heredoc[1] as string] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('='))
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return outputs;
};

/**
 * Run the action at `actionPath` with `inputs` (its `with:`), in `workspace`, with the job's `env`
 * (which must hold RUNNER_TEMP and PATH).
 */
export const runAction = (
  actionPath: string,
  inputs: Readonly<Record<string, string>>,
  workspace: string,
  env: Readonly<Record<string, string>>,
): ActionRun => {
  const action = readAction(actionPath);
  const unknownInput = Object.keys(inputs).filter((k) => !(k in action.inputs));
  if (unknownInput.length > 0) throw new Error(`the action has no input ${unknownInput.join(', ')}`);
  const values: Record<string, string> = { 'github.action_path': actionPath };
  for (const [name, input] of Object.entries(action.inputs))
    values[`inputs.${name}`] = inputs[name] ?? input.default ?? '';
  // a step output nobody wrote is empty, as the runner leaves it; any other unknown expression fails
  const fill = (text: string): string =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      const value = values[expr] ?? (expr.startsWith('steps.') ? '' : undefined);
      if (value === undefined) throw new Error(`no value for the expression \${{ ${expr} }}`);
      return value;
    });
  const files = tempDir('clearance-action-files-');
  const steps: ActionStepRun[] = [];
  const paths: string[] = [];
  let failed = false;
  action.runs.steps.forEach((step, n) => {
    if (failed) {
      steps.push({ name: step.name, status: 'skipped', log: '', summary: '' });
      return;
    }
    const output = path.join(files, `output-${n}`);
    const summary = path.join(files, `summary-${n}`);
    const pathFile = path.join(files, `path-${n}`);
    for (const file of [output, summary, pathFile]) writeFileSync(file, '');
    if (/\$\{\{/.test(step.run)) throw new Error(`step ${step.name}: an expression inside run:`);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(String(v))]));
    const done = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd: path.resolve(workspace, fill(step['working-directory'] ?? '.')),
      env: {
        ...env,
        ...stepEnv,
        GITHUB_ACTION_PATH: actionPath,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_PATH: pathFile,
      },
      encoding: 'utf8',
    });
    if (step.id !== undefined)
      for (const [k, v] of Object.entries(outputsOf(readFileSync(output, 'utf8'))))
        values[`steps.${step.id}.outputs.${k}`] = v;
    paths.push(
      ...readFileSync(pathFile, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    );
    failed = done.status !== 0;
    steps.push({
      name: step.name,
      status: failed ? 'failed' : 'ok',
      log: `${done.stdout}${done.stderr}`,
      summary: readFileSync(summary, 'utf8'),
    });
  });
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, o]) => [name, fill(o.value)]),
  );
  return { steps, outputs, path: paths, failed };
};
