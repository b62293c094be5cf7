import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { Command } from 'commander';
import { ClearanceError, isClearanceError } from '../../errors.js';
import { type VerifiedRun, verify } from '../../operations/verify.js';
import { action, examples } from '../action.js';
import type { Io } from '../context.js';

const describe = (s: VerifiedRun): string => {
  const run = t(s.runId);
  if (s.issue !== null)
    return `${run}: DAMAGED at line ${s.issue.line} (byte ${s.issue.offset}): ${t(s.issue.cause)}`;
  const broken = s.objects.map((o) => `${run}: archived output ${t(o.sha)} is ${o.problem}`);
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
    `${run}: ${state}, ${s.events} event(s), last seq ${s.lastSeq}, head ${s.lastHash.slice(0, 12)}…${notes.map((n) => `\n  note: ${n}`).join('')}`,
    ...broken,
  ].join('\n');
};

/** A damaged store's refusal says every run it checked, then why it refused. */
const withEveryRun = (error: unknown): unknown => {
  if (!isClearanceError(error) || error.code !== 'integrity' || !Array.isArray(error.details.runs))
    return error;
  const runs = error.details.runs as ReadonlyArray<VerifiedRun>;
  return new ClearanceError('integrity', `${runs.map(describe).join('\n')}\n${error.message}`, error.details);
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
        const verified = await verify(ctx, runId === undefined ? {} : { runId }).catch((e: unknown) => {
          throw withEveryRun(e);
        });
        return {
          json: verified,
          text:
            verified.runs.length === 0
              ? `no runs in ${t(ctx.store.where)}`
              : verified.runs.map(describe).join('\n'),
        };
      }),
    );
