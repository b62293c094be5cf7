import { readFile } from 'node:fs/promises';
import { findingId } from '@clearance/fold/internal/events/finding-id.js';
import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import { isClearanceError } from '../../errors.js';
import { capture } from '../../operations/capture.js';
import { open } from '../../operations/open.js';
import { record } from '../../operations/record.js';
import { runPaths } from '../../store/paths.js';
import type { Context } from '../context.js';
import { recordedText } from '../recorded-text.js';
import type { Narrator } from './narrator.js';
import { LATE_NIT, MAJOR, NIT, REVISION_A, REVISION_B, report } from './scenario.js';

const logDigest = async (dir: string, runId: string) => {
  const bytes = await readFile(runPaths(dir, runId).log);
  return `${bytes.length} bytes, sha256 ${sha256Hex(bytes).slice(0, 16)}…`;
};

/** `clearance record RUN --report FILE`, as the demo's reviewer hands it in. */
export const recordReport = (ctx: Context, runId: string, r: RoundReport) =>
  record(ctx, { runId, source: { kind: 'report', report: r } });

/** A step the demo expects refused: it says so, with the rule's code and message. */
const refused = async (ctx: Context, n: Narrator, attempt: () => Promise<unknown>): Promise<void> => {
  try {
    await attempt();
    n.say(ctx.color.red('unexpected: it was accepted'));
  } catch (error) {
    if (!isClearanceError(error)) throw error;
    n.say(`${ctx.color.red('✗ refused')} ${error.code}: ${t(error.message)}`);
  }
};

/**
 * A loop that converges: a capture of unchanged bytes and an incomplete round 2 are refused, each
 * leaving the log untouched; the corrected round 2 converges, its late nit deferred to a follow-up.
 */
export const convergingLoop = async (ctx: Context, n: Narrator, runId: string): Promise<void> => {
  const { dir } = ctx;
  n.step(
    `Open run ${runId} under the converging policy (major blocks; a nit enters in round 1 only, a later one is deferred; at most 4 rounds)`,
  );
  n.command(`open ${runId} --policy converging`);
  await open(ctx, { runId, policy: 'converging' });

  n.step('Capture revision A: the input round 1 reviews');
  n.command(`capture ${runId} --input-sha ${REVISION_A.slice(0, 12)}…`);
  await capture(ctx, { runId, inputSha: REVISION_A });

  n.step('Round 1: the reviewer reports a major and a nit');
  n.command(`record ${runId} --report round-1.json`);
  n.say(
    recordedText(
      ctx.color,
      await recordReport(ctx, runId, report(runId, 1, REVISION_A, { candidates: [MAJOR, NIT] })),
    ),
  );

  n.step('Capture revision A again: nobody changed anything, so there is nothing new to review');
  n.command(`capture ${runId} --input-sha ${REVISION_A.slice(0, 12)}…`);
  await refused(ctx, n, () => capture(ctx, { runId, inputSha: REVISION_A }));

  n.step(`Capture revision B: the author pushed a fix touching ${MAJOR.file}`);
  n.command(`capture ${runId} --input-sha ${REVISION_B.slice(0, 12)}… --touched ${MAJOR.file}`);
  await capture(ctx, { runId, inputSha: REVISION_B, touched: [MAJOR.file] });

  n.step('Round 2, first try: the report says nothing about the major in the touched file');
  const before = await logDigest(dir, runId);
  await refused(ctx, n, () => recordReport(ctx, runId, report(runId, 2, REVISION_B)));
  const after = await logDigest(dir, runId);
  n.say(
    `log before: ${before}\nlog after:  ${after}${before === after ? ctx.color.green('  (unchanged)') : ctx.color.red('  (CHANGED!)')}`,
  );

  n.step('Round 2, corrected: the reviewer rules on the major, and finds one more nit (deferred)');
  const decision = {
    id: findingId(MAJOR),
    status: 'fixed' as const,
    evidence: 'the handle is closed in a finally block; the abort test passes',
  };
  n.say(
    recordedText(
      ctx.color,
      await recordReport(
        ctx,
        runId,
        report(runId, 2, REVISION_B, { candidates: [LATE_NIT], decisions: [decision] }),
      ),
    ),
  );
};
