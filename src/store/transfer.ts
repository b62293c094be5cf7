import { fold } from '@clearance/fold/internal/projections/fold.js';
import { ClearanceError } from '../errors.js';
import { type ParsedLog, parseLog } from './log-format.js';
import { nodeDecider } from './node-decider.js';
import { intact } from './read.js';
import type { Store } from './store.js';

/**
 * Moving a run between stores: `export` hands out a run's log lines exactly as stored, `import`
 * takes them back. What comes in is checked whole before anything is written: every line decodes
 * and chains, the last line ends in `\n`, the first event opens this very run, and the rules accept
 * every event (a log clearance wrote never holds a refused one). Damaged input is refused with
 * nothing written.
 */
export const checkImport = (runId: string, bytes: Buffer): ParsedLog => {
  const parsed = parseLog(bytes);
  const refuse = (why: string, details: Record<string, unknown> = {}) =>
    new ClearanceError('integrity', `cannot import run ${runId}: ${why}; nothing was written`, {
      runId,
      ...details,
    });
  if (parsed.issue !== null)
    throw refuse(`line ${parsed.issue.line} (byte ${parsed.issue.offset}) ${parsed.issue.cause}`, {
      ...parsed.issue,
    });
  if (parsed.tornTail !== null)
    throw refuse(
      `the input ends in ${parsed.tornTail.bytes} byte(s) without a final newline (a torn or cut copy)`,
    );
  const first = parsed.events[0];
  if (first === undefined) throw refuse('the input holds no events');
  if (first.type !== 'run.opened' || first.data.runId !== runId) {
    throw refuse(
      first.type === 'run.opened'
        ? `the log opens run ${first.data.runId}, not ${runId} (a run keeps its id: its reports are bound to it)`
        : `the first event is ${first.type}, not run.opened`,
    );
  }
  const refused = fold(nodeDecider.evolve, parsed.events).trail.find((t) => t.rejection !== null);
  if (refused !== undefined)
    throw refuse(`event ${refused.seq} is refused by the rules: ${refused.rejection?.message}`);
  return parsed;
};

/** A run's log exactly as stored, its intact lines only (a torn tail left out; a damaged log refused). */
export const exportLog = async (store: Pick<Store, 'readLog'>, runId: string): Promise<Buffer> => {
  const { bytes, ...located } = await store.readLog(runId);
  const parsed = intact({ ...parseLog(bytes, located.head.head), ...located });
  return bytes.subarray(0, parsed.size);
};

/** A new run from exported lines, checked whole first (`checkImport`); returns its event count. */
export const importLog = async (
  store: Pick<Store, 'createRun'>,
  runId: string,
  bytes: Buffer,
): Promise<number> => {
  const parsed = checkImport(runId, bytes);
  await store.createRun({ runId, text: bytes, head: { seq: parsed.lastSeq, hash: parsed.lastHash } });
  return parsed.events.length;
};
