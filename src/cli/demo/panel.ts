import { PRESETS } from '@clearance/fold/internal/events/policy.js';
import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import { renderExplanation } from '@clearance/fold/internal/render/explain-text.js';
import { capture } from '../../operations/capture.js';
import { contribute } from '../../operations/contributions.js';
import { open } from '../../operations/open.js';
import { record } from '../../operations/record.js';
import { replay } from '../../operations/replay.js';
import { explain, findings } from '../../operations/run-views.js';
import { status } from '../../operations/status.js';
import type { Context } from '../context.js';
import { shortId, statusText, trailLine } from '../format.js';
import { recordedText } from '../recorded-text.js';
import type { Narrator } from './narrator.js';
import { MAJOR, NIT, report, revision } from './scenario.js';

const EXPERTS = ['security', 'correctness', 'style'] as const;

/** The security reviewer's view of the line the correctness reviewer also flagged. */
const SOCKETS = {
  file: MAJOR.file,
  line: MAJOR.line,
  category: 'security',
  summary: 'A client that aborts requests exhausts the server’s sockets',
  severity: 'major',
  confirmed: true,
  evidence: '200 aborted requests leave 200 sockets in CLOSE_WAIT; the pool refuses new connections',
} as const;

/** A candidate the verifier refutes: the merge drops it and keeps it on the record. */
const CACHE = {
  file: 'src/cache.js',
  line: 7,
  category: 'security',
  summary: 'Cached responses may leak across users',
  severity: 'major',
  confirmed: true,
  evidence: 'the cache key looks like it omits the user id',
} as const;

/** One reviewer handing in a report, as the driver would with `clearance contribute`. */
type HandIn = Readonly<{ expert: string; report: RoundReport; file: string }>;

/**
 * A round from three reviewers and a verifier: two hand in and flag the same line under different
 * categories, the merge makes one finding of it, corroborated by both; the verifier refutes another
 * candidate, which the merge drops and keeps on the record; the third expert hands in nothing, so
 * the round is partial and names them. In round 2 the three experts hand in and the run converges.
 */
export const panelLoop = async (ctx: Context, n: Narrator, runId: string): Promise<void> => {
  const c = ctx.color;
  const handIn = async ({ expert, report: r, file }: HandIn): Promise<void> => {
    n.command(`contribute ${runId} --expert ${expert} --report ${file}`);
    await contribute(ctx, { runId, report: r, expert });
    const ruled = r.verifications?.length ?? 0;
    const counts = `${r.candidates.length} candidate(s), ${r.decisions.length} decision(s)${ruled === 0 ? '' : `, ${ruled} verdict(s)`}`;
    n.say(`${expert} handed in ${counts}`);
  };
  const closeRound = async (): Promise<void> => {
    n.command(`record ${runId} --merge`);
    n.say(recordedText(c, await record(ctx, { runId, source: { kind: 'merge' } })));
  };

  n.step(`A panel, ${runId}: three reviewers a round (policy experts: ${EXPERTS.join(', ')})`);
  n.command(`open ${runId} --policy-file panel.json --input-sha ${revision(1).slice(0, 12)}…`);
  await open(ctx, {
    runId,
    policy: { ...PRESETS.default, name: 'panel', experts: [...EXPERTS] },
    inputSha: revision(1),
  });

  n.step(
    'Round 1: security and correctness flag the same line, a verifier refutes one candidate, style hands in nothing',
  );
  // Round 1's reports, in the order they are handed in: a verifier rules only on candidates
  // already handed in, so it comes last.
  const round1: ReadonlyArray<HandIn> = [
    {
      expert: 'security',
      report: report(runId, 1, revision(1), { candidates: [SOCKETS, CACHE], reviewer: 'security' }),
      file: 'security.json',
    },
    {
      expert: 'correctness',
      report: report(runId, 1, revision(1), { candidates: [MAJOR, NIT], reviewer: 'correctness' }),
      file: 'correctness.json',
    },
    {
      expert: 'verifier',
      report: report(runId, 1, revision(1), {
        reviewer: 'verifier',
        verifications: [
          {
            file: CACHE.file,
            category: CACHE.category,
            summary: CACHE.summary,
            verdict: 'refuted',
            evidence:
              'the key joins the user id and the URL (src/cache.js:5); a second user misses the cache',
          },
        ],
      }),
      file: 'verifier.json',
    },
  ];
  for (const h of round1) await handIn(h);
  n.say(c.dim('style is still missing: record --merge records it absent (collect would, at its deadline)'));
  await closeRound();

  n.step(
    'Why round 1 ended as it did: one finding from two candidates, corroborated; the refuted one dropped; the absent named',
  );
  n.command(`explain ${runId}`);
  n.say(renderExplanation(await explain(ctx, { runId })));
  n.command(`status ${runId}`);
  const view = await status(ctx, { runId });
  n.say(statusText(c, view, view.seq));

  const [finding] = (await findings(ctx, { runId, status: 'open' })).findings.filter((f) => f.blocking);
  if (finding === undefined) throw new Error('demo: round 1 should leave one blocking finding open');
  n.step(`Round 2: the author fixes ${MAJOR.file}; all three hand in`);
  n.command(`capture ${runId} --input-sha ${revision(2).slice(0, 12)}… --touched ${MAJOR.file}`);
  await capture(ctx, { runId, inputSha: revision(2), touched: [MAJOR.file] });
  const fixed = (evidence: string) => ({ id: shortId(finding.id), status: 'fixed' as const, evidence });
  const round2: ReadonlyArray<HandIn> = [
    {
      expert: 'security',
      report: report(runId, 2, revision(2), {
        decisions: [fixed('200 aborted requests now leave no socket behind')],
        reviewer: 'security',
      }),
      file: 'security-2.json',
    },
    {
      expert: 'correctness',
      report: report(runId, 2, revision(2), {
        decisions: [fixed('the handle is closed in a finally block; the abort test passes')],
        reviewer: 'correctness',
      }),
      file: 'correctness-2.json',
    },
    {
      expert: 'style',
      report: report(runId, 2, revision(2), { reviewer: 'style' }),
      file: 'style-2.json',
    },
  ];
  for (const h of round2) await handIn(h);
  await closeRound();

  n.step(`Replay ${runId}: every contribution, the absence, and what each merged round was made of`);
  n.command(`replay ${runId}`);
  const replayed = await replay(ctx, { runId });
  n.say(replayed.events.map((e) => trailLine(c, e, { by: e.by })).join('\n'));
};
