import { captureRound } from '../../driver/capture.js';
import { openReview } from '../../driver/open.js';
import { recordReport } from '../../driver/record.js';
import { isClearanceError } from '../../errors.js';
import { PRESETS } from '../../events/policy.js';
import { explain } from '../../projections/views/explain.js';
import { renderExplanation } from '../../render/explain-text.js';
import type { Context } from '../context.js';
import { statusWord } from '../format.js';
import type { Narrator } from './narrator.js';
import { MAJOR, report, revision } from './scenario.js';

/** A loop that hits the cap: nobody touches the file with the major, so it is never decided. */
export const blockedLoop = async (ctx: Context, n: Narrator, runId: string): Promise<void> => {
  const { dir, by } = ctx;
  n.step(`A second run, ${runId}: the major is never addressed`);
  n.command(`open ${runId} --input-sha ${revision(1).slice(0, 12)}…`);
  await openReview(
    dir,
    { runId, policy: PRESETS.default, capture: { inputSha: revision(1), touchedFiles: [], renames: [] } },
    by,
  );
  let last = await recordReport(dir, runId, report(runId, 1, revision(1), { candidates: [MAJOR] }), { by });
  n.say(`round 1: ${statusWord(ctx.color, last.folded.state.status)} (1 blocking finding)`);
  for (let round = 2; round <= PRESETS.default.maxRounds; round += 1) {
    await captureRound(
      dir,
      runId,
      { inputSha: revision(round), touchedFiles: ['README.md'], renames: [] },
      { by },
    );
    last = await recordReport(dir, runId, report(runId, round, revision(round)), { by });
    n.say(
      `round ${round}: only README.md changed; the finding carries forward → ${statusWord(ctx.color, last.folded.state.status)}`,
    );
  }
  n.say(renderExplanation(explain(last.folded.state)));
  try {
    await captureRound(
      dir,
      runId,
      { inputSha: revision(5), touchedFiles: [MAJOR.file], renames: [] },
      { by },
    );
  } catch (error) {
    if (!isClearanceError(error)) throw error;
    n.say(`a 5th round: ${ctx.color.red('✗ refused')} ${error.code}: ${error.message}`);
  }
};
