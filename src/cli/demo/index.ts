import { mkdtemp, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import { explain } from '../../operations/run-views.js';
import { listRuns, status } from '../../operations/status.js';
import { fileStore } from '../../store/store.js';
import type { Context } from '../context.js';
import type { Outcome } from '../output.js';
import { blockedLoop } from './blocked.js';
import { checksLoop } from './checks.js';
import { gateLoop } from './gate.js';
import { rulingAfterCap, stagedLoop } from './lifecycle.js';
import { convergingLoop } from './loop.js';
import { panelLoop } from './panel.js';
import { session } from './session.js';
import { shellLine, shellWord } from './shell-line.js';

const RUNS = {
  converging: 'demo-converges',
  blocked: 'demo-blocked',
  gate: 'demo-gate',
  checks: 'demo-checks',
  staged: 'demo-staged',
  panel: 'demo-panel',
} as const;

/** The run ids and their final verdicts, read from the store (a ruled run says who ruled). */
const finalVerdicts = async (ctx: Context) => {
  // without git, demo-gate was skipped
  const present = (await listRuns(ctx)).runs.map((r) => r.runId);
  return Promise.all(
    Object.values(RUNS)
      .filter((runId) => present.includes(runId))
      .map(async (runId) => {
        const view = await status(ctx, { runId });
        const ruling =
          runId === RUNS.blocked ? { convergedBy: (await explain(ctx, { runId })).convergedBy } : {};
        return { runId, status: view.status, ...ruling };
      }),
  );
};

/**
 * `clearance demo`: whole loops in a fresh work directory and one store, printed for a person as
 * the commands they would type and what each printed. The commands run in this process, from the
 * work directory (the process's working directory meanwhile, restored after), so that the relative
 * paths they name are the ones printed.
 */
export const runDemo = async (base: Context): Promise<Outcome> => {
  const workdir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'clearance-demo-')));
  const dir = path.join(workdir, 'store');
  // what the printed preamble sets: CLEARANCE_STORE, when set, would come before CLEARANCE_DIR
  const { CLEARANCE_STORE: otherStore, ...inherited } = base.io.env;
  const env = { ...inherited, CLEARANCE_DIR: dir, CLEARANCE_ACTOR: 'demo' };
  const preamble = [
    ['cd', workdir],
    ...((otherStore ?? '') === '' ? [] : [['unset', 'CLEARANCE_STORE']]),
    ['export', `CLEARANCE_DIR=${dir}`, 'CLEARANCE_ACTOR=demo'],
  ];
  const ctx: Context = { ...base, dir, store: fileStore(dir), by: 'demo' };
  const c = ctx.color;
  const s = session({ workdir, env, color: c });

  const home = process.cwd();
  process.chdir(workdir);
  try {
    await convergingLoop(s, ctx, RUNS.converging);
    await blockedLoop(s, RUNS.blocked);
    await gateLoop(s, ctx, RUNS.gate);
    await checksLoop(s, RUNS.checks);
    await stagedLoop(s, RUNS.staged);
    await rulingAfterCap(s, RUNS.blocked);
    await panelLoop(s, ctx, RUNS.panel);
    s.step(`Replay ${RUNS.converging} from its log: every event, and what it did`);
    await s.clearance(['replay', RUNS.converging]);
    s.step('Every run in the store, and where it stands');
    await s.clearance(['status']);
  } finally {
    process.chdir(home);
  }

  const runs = await finalVerdicts(ctx);
  const text = [
    c.bold('clearance demo: whole review loops, each step the command that does it and what it printed.'),
    'Every command below ran in one work directory, on one store, as a shell runs it after these lines:',
    // the directory comes from TMPDIR: the user's environment, encoded for the terminal
    ...preamble.map((words) => c.dim(`   $ ${t(shellLine(words))}`)),
    s.text(),
    '',
    `The demo left its files in ${t(shellWord(workdir))}, and its one store in ${t(shellWord(dir))}.`,
    `Look around, from the clone: npx clearance --dir ${t(shellWord(dir))} status`,
    'Then review something of your own: the README, "One loop, by hand".',
  ].join('\n');
  return { json: { dir, workdir, runs, steps: s.steps() }, text };
};
