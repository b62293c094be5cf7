import { citationOf } from '../projections/views/findings.js';
import type { AppendResult } from '../store/append.js';
import type { Context } from './context.js';
import { shortId, statusWord } from './format.js';
import type { Outcome } from './output.js';

/** What `record` prints after a round was appended, however the report arrived. */
export const recordedOutcome = (ctx: Context, runId: string, result: AppendResult): Outcome => {
  const { state, trail } = result.folded;
  const entry = trail[trail.length - 1];
  const c = ctx.color;
  const lines = [
    result.alreadyRecorded
      ? `already recorded: this very report is round ${state.round} of ${runId} (${statusWord(c, state.status)}); nothing was appended`
      : `round ${state.round} of ${runId} recorded: ${statusWord(c, state.status)}`,
  ];
  if (result.repairedTail !== null) {
    lines.push(
      c.yellow(
        `note: a torn tail of ${result.repairedTail.bytes} byte(s) at offset ${result.repairedTail.offset} (never acknowledged) was truncated`,
      ),
    );
  }
  // a merged round says what it was made of and who was absent; a partial one says so
  if (!result.alreadyRecorded && entry?.note !== null && entry?.note !== undefined)
    lines.push(`  ${entry.note}`);
  for (const id of entry?.opened ?? []) {
    const f = state.findings[id];
    if (f !== undefined) lines.push(`  + ${shortId(id)} ${f.severity} ${citationOf(f)} ${f.summary}`);
  }
  for (const ch of entry?.changed ?? []) lines.push(`  ${shortId(ch.id)} ${ch.from} → ${ch.to}`);
  for (const s of entry?.suppressed ?? []) {
    lines.push(
      c.dim(
        `  suppressed ${s.severity} ${shortId(s.id)} ${s.summary} (${s.reason === 'late' ? 'enters only in round 1' : 'over the allowance'})`,
      ),
    );
  }
  return {
    json: {
      runId,
      round: state.round,
      status: state.status,
      seq: result.appended[result.appended.length - 1]?.seq ?? null,
      opened: entry?.opened ?? [],
      changed: entry?.changed ?? [],
      suppressed: entry?.suppressed ?? [],
      repairedTail: result.repairedTail,
      alreadyRecorded: result.alreadyRecorded,
    },
    text: lines.join('\n'),
  };
};
