import { PRESETS } from '@clearance/fold/internal/events/policy.js';
import { renderExplanation } from '@clearance/fold/internal/render/explain-text.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import { isClearanceError } from '../../errors.js';
import { capture } from '../../operations/capture.js';
import { open } from '../../operations/open.js';
import { explain } from '../../operations/run-views.js';
import type { Context } from '../context.js';
import { statusWord } from '../format.js';
import { recordReport } from './loop.js';
import type { Narrator } from './narrator.js';
import { MAJOR, report, revision } from './scenario.js';

/** A loop that hits the cap: nobody touches the file with the major, so it is never decided. */
export const blockedLoop = async (ctx: Context, n: Narrator, runId: string): Promise<void> => {
  n.step(`A second run, ${runId}: the major is never addressed`);
  n.command(`open ${runId} --input-sha ${revision(1).slice(0, 12)}…`);
  await open(ctx, { runId, inputSha: revision(1) });
  let last = await recordReport(ctx, runId, report(runId, 1, revision(1), { candidates: [MAJOR] }));
  n.say(`round 1: ${statusWord(ctx.color, last.status)} (1 blocking finding)`);
  for (let round = 2; round <= PRESETS.default.maxRounds; round += 1) {
    await capture(ctx, { runId, inputSha: revision(round), touched: ['README.md'] });
    last = await recordReport(ctx, runId, report(runId, round, revision(round)));
    n.say(
      `round ${round}: only README.md changed; the finding carries forward → ${statusWord(ctx.color, last.status)}`,
    );
  }
  n.say(renderExplanation(await explain(ctx, { runId })));
  try {
    await capture(ctx, { runId, inputSha: revision(5), touched: [MAJOR.file] });
  } catch (error) {
    if (!isClearanceError(error)) throw error;
    n.say(`a 5th round: ${ctx.color.red('✗ refused')} ${error.code}: ${t(error.message)}`);
  }
};
