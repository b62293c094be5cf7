import { citationOf } from '@clearance/fold/internal/projections/citation.js';
import { rulingWord } from '@clearance/fold/internal/render/dispute-text.js';
import { deferredCause } from '@clearance/fold/internal/render/trend-text.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { RecordResult } from '../operations/recorded.js';
import type { Colors } from './context.js';
import { shortId, statusWord } from './format.js';
import { nextLine } from './next-command.js';

/** What `record` and `collect` print after a round ended, however it ended. */
export const recordedText = (c: Colors, r: RecordResult): string => {
  const endedWithout = r.result !== null && r.result !== 'complete' && r.reason !== null;
  const lines = [
    r.alreadyRecorded
      ? `already recorded: this very report is round ${r.round} of ${t(r.runId)} (${statusWord(c, r.status)}); nothing was appended`
      : endedWithout
        ? `round ${r.round} of ${t(r.runId)} ended ${r.result}: ${t(r.reason ?? '')}\nthe run is ${statusWord(c, r.status)}`
        : `round ${r.round} of ${t(r.runId)} recorded: ${statusWord(c, r.status)}`,
  ];
  if (r.repairedTail !== null) {
    lines.push(
      c.yellow(
        `note: a torn tail of ${r.repairedTail.bytes} byte(s) at offset ${r.repairedTail.offset} (never acknowledged) was truncated`,
      ),
    );
  }
  // a merged round says what it was made of and who was absent; a partial one says so
  // (a round.ended's note says what the first line already does)
  if (r.note !== null && r.note !== `round ended ${r.result}: ${r.reason}`) lines.push(`  ${t(r.note)}`);
  for (const f of r.openedFindings)
    lines.push(`  + ${shortId(f.id)} ${t(f.severity)} ${t(f.citation)} ${t(f.summary)}`);
  for (const ch of r.changed) lines.push(`  ${shortId(ch.id)} ${ch.from} → ${ch.to}`);
  for (const s of r.suppressed) {
    lines.push(
      c.dim(
        `  suppressed ${t(s.severity)} ${shortId(s.id)} ${t(s.summary)} (${s.reason === 'late' ? 'enters only in round 1' : 'over the allowance'})`,
      ),
    );
  }
  for (const d of r.deferred)
    lines.push(
      c.dim(
        `  deferred ${t(d.severity)} ${shortId(d.id)} ${t(citationOf(d))} ${t(d.summary)} (${deferredCause(d)}): kept for a follow-up`,
      ),
    );
  for (const held of r.refutedBefore)
    lines.push(
      c.dim(
        `  refuted before: ${t(held.severity)} ${shortId(held.id)} ${t(held.citation)} ${t(held.summary)} (${held.before.how} in round ${held.before.round}, its file unchanged since): not admitted`,
      ),
    );
  for (const d of r.disputesRuled) lines.push(`  dispute of ${shortId(d.id)} ${rulingWord(d)}`);
  // a round that blocked the run says why, and what a person can do now
  if (r.final !== null && r.status === 'blocked' && !r.alreadyRecorded)
    lines.push(t(r.final.why), nextLine(r.final.next));
  return lines.join('\n');
};
