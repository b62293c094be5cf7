import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import { replay } from '../../operations/replay.js';
import { explain } from '../../operations/run-views.js';
import { listRuns, status } from '../../operations/status.js';
import { fileStore } from '../../store/store.js';
import type { Context } from '../context.js';
import { statusWord, trailLine } from '../format.js';
import type { Outcome } from '../output.js';
import { blockedLoop } from './blocked.js';
import { checksLoop } from './checks.js';
import { gateLoop } from './gate.js';
import { rulingAfterCap, stagedLoop } from './lifecycle.js';
import { convergingLoop } from './loop.js';
import { narrator } from './narrator.js';
import { panelLoop } from './panel.js';

/** `clearance demo`: a whole loop in a fresh temporary store, printed for a person. */
export const runDemo = async (base: Context): Promise<Outcome> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-demo-'));
  // every step is an operation on a store of its own, as `clearance --dir <dir> …` would run it
  const ctx: Context = { ...base, dir, store: fileStore(dir), by: 'demo' };
  const n = narrator(ctx.color);
  const converging = 'demo-converges';
  const blocked = 'demo-blocked';
  const panel = 'demo-panel';
  await convergingLoop(ctx, n, converging);
  await blockedLoop(ctx, n, blocked);
  await gateLoop(ctx, n, 'demo-gate');
  await checksLoop(ctx, n, 'demo-checks');
  await stagedLoop(ctx, n, 'demo-staged');
  await rulingAfterCap(ctx, n, blocked);
  await panelLoop(ctx, n, panel);

  n.step(`Replay ${converging} from its log: every event, and what it did`);
  n.command(`replay ${converging}`);
  const replayed = await replay(ctx, { runId: converging });
  n.say(replayed.events.map((e) => trailLine(ctx.color, e, e)).join('\n'));

  // without git, demo-gate was skipped
  const present = (await listRuns(ctx)).runs.map((r) => r.runId);
  const finals = await Promise.all(
    [converging, blocked, 'demo-gate', 'demo-checks', 'demo-staged', panel]
      .filter((runId) => present.includes(runId))
      .map(async (runId) => {
        const view = await status(ctx, { runId });
        const ruling = runId === blocked ? { convergedBy: (await explain(ctx, { runId })).convergedBy } : {};
        return { runId, status: view.status, ...ruling };
      }),
  );
  const text = [
    ctx.color.bold(`clearance demo — a whole review loop in a fresh store: ${dir}`),
    n.lines(),
    '',
    ...finals.map(
      (f) =>
        `${f.runId}: ${statusWord(ctx.color, f.status)}${'convergedBy' in f && f.convergedBy !== null && f.convergedBy !== undefined ? ` (by ruling of ${t(f.convergedBy)}, after blocking at its cap)` : ''}`,
    ),
    `Look around: clearance --dir ${dir} status`,
  ].join('\n');
  return { json: { dir, runs: finals }, text };
};
