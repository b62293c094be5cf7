// The clearance action's step outputs (action.yml), from the one JSON object the command wrote with
// --json-file: the run it names, the run's verdict, and the failure's code, as `name=value` lines
// for $GITHUB_OUTPUT. Only values of a closed form are written (a run id's characters, a status,
// an error code), so nothing a reviewer wrote reaches the outputs, and no value can hold a newline
// that would start an output of its own. A file that is missing or not JSON says nothing.
//
// A refusal's JSON may name no run (the gate's names its reason and the run's status): then the
// run is the command's own argument, `<command> <run> …` as CLEARANCE_COMMAND gives it, when it
// has a run id's form.
import { readFileSync } from 'node:fs';

const VERDICTS = new Set(['open', 'converged', 'blocked']);
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const ERROR_CODE = /^[a-z][a-z0-9-]{0,63}$/;

const resultOf = (file) => {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    return parsed !== null && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
};

const result = resultOf(process.argv[2] ?? '');
const error = typeof result.error === 'object' && result.error !== null ? result.error : {};
const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
// a gate's approval names no status: it approves only a converged run
const verdict = result.status ?? details.status ?? (result.approved === true ? 'converged' : '');
const [command, argument] = (process.env.CLEARANCE_COMMAND ?? '').trim().split(/\s+/);
const named = command !== undefined && !command.startsWith('-') ? argument : undefined;
const runId = result.runId ?? details.runId ?? named ?? '';
const outputs = {
  verdict: VERDICTS.has(verdict) ? verdict : '',
  error: typeof error.code === 'string' && ERROR_CODE.test(error.code) ? error.code : '',
  'run-id': typeof runId === 'string' && RUN_ID.test(runId) && !runId.includes('..') ? runId : '',
};
process.stdout.write(
  Object.entries(outputs)
    .map(([name, value]) => `${name}=${value}\n`)
    .join(''),
);
