import type { Command } from 'commander';
import { ClearanceError } from '../../errors.js';
import type { ObjectProblem } from '../../store/objects.js';
import { integrityError, type RunStateRead } from '../../store/read.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

const summary = (read: RunStateRead, objects: ReadonlyArray<ObjectProblem>) => ({
  runId: read.runId,
  intact: read.issue === null && objects.length === 0,
  events: read.events,
  lastSeq: read.lastSeq,
  lastHash: read.lastHash,
  head: read.head.state,
  beyondHead: read.beyondHead,
  tornTail: read.tornTail,
  issue: read.issue,
  objects,
  refused: read.refused,
});

type Summary = ReturnType<typeof summary>;

const describe = (s: Summary): string => {
  if (s.issue !== null)
    return `${s.runId}: DAMAGED at line ${s.issue.line} (byte ${s.issue.offset}): ${s.issue.cause}`;
  const broken = s.objects.map((o) => `${s.runId}: archived output ${o.sha} is ${o.problem}`);
  const notes = [
    s.tornTail === null
      ? ''
      : `a torn tail of ${s.tornTail.bytes} byte(s) at byte ${s.tornTail.offset} (never acknowledged; ignored)`,
    s.head === 'ok'
      ? ''
      : `no readable head anchor (${s.head}): a change to the last line cannot be detected`,
    s.beyondHead === 0
      ? ''
      : `${s.beyondHead} line(s) after the head anchor (an append stopped before updating it)`,
    s.refused === 0 ? '' : `${s.refused} event(s) refused by the rules when folded (see replay)`,
  ].filter((n) => n !== '');
  const state = s.objects.length === 0 ? 'intact' : 'log intact, archive DAMAGED';
  return [
    `${s.runId}: ${state}, ${s.events} event(s), last seq ${s.lastSeq}, head ${s.lastHash.slice(0, 12)}…${notes.map((n) => `\n  note: ${n}`).join('')}`,
    ...broken,
  ].join('\n');
};

export const registerVerify = (program: Command, io: Io): Command =>
  program
    .command('verify')
    .description(
      'check a run (or every run): every line decodes, seq has no gaps, the hash chain and head anchor hold, every archived output is there',
    )
    .argument('[run]', 'the run id (default: every run in the store)')
    .addHelpText(
      'after',
      `${examples('clearance verify pr-236', 'clearance verify --json')}\nExit 0 when intact; 1 naming the first damaged line (or output).`,
    )
    .action(
      action(io, async (ctx, runId: string | undefined) => {
        const ids = runId === undefined ? await ctx.store.listRuns() : [runId];
        const runs: Summary[] = [];
        // one run at a time, keeping its summary only: every byte is checked, no checkpoint is trusted
        let damaged: RunStateRead | undefined;
        for (const id of ids) {
          const read = await ctx.store.readRunState(id);
          if (read.issue !== null) damaged ??= read;
          runs.push(summary(read, read.issue === null ? await ctx.store.checkObjects(id, read.outputs) : []));
        }
        if (damaged !== undefined) {
          const error = integrityError(damaged) as ClearanceError;
          throw new ClearanceError('integrity', `${runs.map(describe).join('\n')}\n${error.message}`, {
            ...error.details,
            runs,
          });
        }
        const archive = runs.find((r) => r.objects.length > 0);
        if (archive !== undefined) {
          throw new ClearanceError(
            'integrity',
            `${runs.map(describe).join('\n')}\nrun ${archive.runId}'s archive is missing or has changed outputs its log names`,
            { runs },
          );
        }
        return {
          json: { runs },
          text: runs.length === 0 ? `no runs in ${ctx.store.where}` : runs.map(describe).join('\n'),
        };
      }),
    );
