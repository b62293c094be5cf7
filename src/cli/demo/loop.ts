import { readFile } from 'node:fs/promises';
import { findingId } from '@clearance/fold/internal/events/finding-id.js';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { runPaths } from '../../store/paths.js';
import type { Context } from '../context.js';
import { LATE_NIT, MAJOR, NIT, REVISION_A, REVISION_B, report, writeReport } from './scenario.js';
import type { Session } from './session.js';

const logDigest = async (dir: string, runId: string) => {
  const bytes = await readFile(runPaths(dir, runId).log);
  return `${bytes.length} bytes, sha256 ${sha256Hex(bytes).slice(0, 16)}…`;
};

/**
 * A loop that converges: a capture of unchanged bytes and an incomplete round 2 are refused, each
 * leaving the log untouched; the corrected round 2 converges, its late nit deferred to a follow-up.
 */
export const convergingLoop = async (s: Session, ctx: Context, runId: string): Promise<void> => {
  s.step(
    `Open run ${runId} under the converging policy (major blocks; a nit enters in round 1 only, a later one is deferred; at most 4 rounds)`,
  );
  await s.clearance(['open', runId, '--policy', 'converging']);

  s.step('Capture revision A: the input round 1 reviews');
  await s.clearance(['capture', runId, '--input-sha', REVISION_A]);

  s.step('Round 1: the reviewer reports a major and a nit');
  await writeReport(s, 'converges/round-1.json', report(runId, 1, REVISION_A, { candidates: [MAJOR, NIT] }));
  await s.clearance(['record', runId, '--report', 'converges/round-1.json']);

  s.step('Capture revision A again: nobody changed anything, so there is nothing new to review');
  await s.clearance(['capture', runId, '--input-sha', REVISION_A], { exit: 1 });

  s.step(`Capture revision B: the author pushed a fix touching ${MAJOR.file}`);
  await s.clearance(['capture', runId, '--input-sha', REVISION_B, '--touched', MAJOR.file]);

  s.step('Round 2, first try: the report says nothing about the major in the touched file');
  await writeReport(s, 'converges/round-2.json', report(runId, 2, REVISION_B));
  const before = await logDigest(ctx.dir, runId);
  await s.clearance(['record', runId, '--report', 'converges/round-2.json'], { exit: 1 });
  const after = await logDigest(ctx.dir, runId);
  if (before !== after) throw new Error(`demo: a refused report changed the log (${before}, then ${after})`);
  s.note(`the run's log before and after it: ${after}, unchanged`);

  s.step('Round 2, corrected: the reviewer rules on the major, and finds one more nit (deferred)');
  const decision = {
    id: findingId(MAJOR),
    status: 'fixed' as const,
    evidence: 'the handle is closed in a finally block; the abort test passes',
  };
  await writeReport(
    s,
    'converges/round-2-corrected.json',
    report(runId, 2, REVISION_B, { candidates: [LATE_NIT], decisions: [decision] }),
  );
  await s.clearance(['record', runId, '--report', 'converges/round-2-corrected.json']);
};
