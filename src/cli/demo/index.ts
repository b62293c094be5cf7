import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listRuns } from '../../store/list.js';
import { readIntactRun } from '../../store/read.js';
import type { Context } from '../context.js';
import { statusWord, trailLine } from '../format.js';
import type { Outcome } from '../output.js';
import { blockedLoop } from './blocked.js';
import { gateLoop } from './gate.js';
import { rulingAfterCap, stagedLoop } from './lifecycle.js';
import { convergingLoop } from './loop.js';
import { narrator } from './narrator.js';
import { panelLoop } from './panel.js';

/** `clearance demo`: a whole loop in a fresh temporary store, printed for a person. */
export const runDemo = async (base: Context): Promise<Outcome> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-demo-'));
  const ctx: Context = { ...base, dir, by: 'demo' };
  const n = narrator(ctx.color);
  const converging = 'demo-converges';
  const blocked = 'demo-blocked';
  const panel = 'demo-panel';
  await convergingLoop(ctx, n, converging);
  await blockedLoop(ctx, n, blocked);
  await gateLoop(ctx, n, 'demo-gate');
  await stagedLoop(ctx, n, 'demo-staged');
  await rulingAfterCap(ctx, n, blocked);
  await panelLoop(ctx, n, panel);

  n.step(`Replay ${converging} from its log: every event, and what it did`);
  n.command(`replay ${converging}`);
  const read = await readIntactRun(dir, converging);
  n.say(
    read.folded.trail
      .map((t, i) => trailLine(ctx.color, t, { at: read.events[i]?.at, by: read.events[i]?.by }))
      .join('\n'),
  );

  const present = await listRuns(dir); // without git, demo-gate was skipped
  const finals = await Promise.all(
    [converging, blocked, 'demo-gate', 'demo-staged', panel]
      .filter((runId) => present.includes(runId))
      .map(async (runId) => ({
        runId,
        status: (await readIntactRun(dir, runId)).folded.state.status,
        ...(runId === blocked
          ? { convergedBy: (await readIntactRun(dir, runId)).folded.state.convergedBy?.by ?? null }
          : {}),
      })),
  );
  const text = [
    ctx.color.bold(`clearance demo — a whole review loop in a fresh store: ${dir}`),
    n.lines(),
    '',
    ...finals.map(
      (f) =>
        `${f.runId}: ${statusWord(ctx.color, f.status)}${'convergedBy' in f && f.convergedBy !== null ? ` (by ruling of ${f.convergedBy}, after blocking at its cap)` : ''}`,
    ),
    `Look around: clearance --dir ${dir} status`,
  ].join('\n');
  return { json: { dir, runs: finals }, text };
};
