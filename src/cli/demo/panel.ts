import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import { findings } from '../../operations/run-views.js';
import type { Context } from '../context.js';
import { shortId } from '../format.js';
import { MAJOR, NIT, report, revision, writeReport } from './scenario.js';
import type { Session } from './session.js';

const REVIEWERS = ['security', 'correctness', 'style'] as const;
const POLICY = {
  name: 'panel',
  maxRounds: 4,
  severities: { major: { blocks: true }, nit: { blocks: false, firstRoundOnly: true } },
  experts: REVIEWERS,
};

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

/**
 * A round from three reviewers and a verifier: two hand in and flag the same line under different
 * categories, the merge makes one finding of it, corroborated by both; the verifier refutes another
 * candidate, which the merge drops and keeps on the record; the third reviewer hands in nothing,
 * so the round is partial and names them. In round 2 the three hand in and the run converges.
 */
export const panelLoop = async (s: Session, ctx: Context, runId: string): Promise<void> => {
  const handIn = async (reviewer: string, r: RoundReport): Promise<void> => {
    const file = `panel/${reviewer}-${r.round}.json`;
    await writeReport(s, file, r);
    await s.clearance(['contribute', runId, '--reviewer', reviewer, '--report', file]);
  };

  s.step(`A panel, ${runId}: three reviewers a round (the policy's experts: ${REVIEWERS.join(', ')})`);
  await s.write('panel/panel.json', `${JSON.stringify(POLICY)}\n`, 'the policy', { show: true });
  await s.clearance(['open', runId, '--policy-file', 'panel/panel.json', '--input-sha', revision(1)]);

  s.step(
    'Round 1: security and correctness flag the same line, a verifier refutes one candidate, style hands in nothing',
  );
  await handIn(
    'security',
    report(runId, 1, revision(1), { candidates: [SOCKETS, CACHE], reviewer: 'security' }),
  );
  await handIn(
    'correctness',
    report(runId, 1, revision(1), { candidates: [MAJOR, NIT], reviewer: 'correctness' }),
  );
  // a verifier rules only on candidates already handed in, so it comes last
  await handIn(
    'verifier',
    report(runId, 1, revision(1), {
      reviewer: 'verifier',
      verifications: [
        {
          file: CACHE.file,
          category: CACHE.category,
          summary: CACHE.summary,
          verdict: 'refuted',
          evidence: 'the key joins the user id and the URL (src/cache.js:5); a second user misses the cache',
        },
      ],
    }),
  );
  s.note('style is still missing: record --merge records it absent (collect would, at its deadline)');
  await s.clearance(['record', runId, '--merge']);

  s.step(
    'Why round 1 ended as it did: one finding from two candidates, corroborated; the refuted one dropped; the absent named',
  );
  await s.clearance(['explain', runId], { lines: 9 });
  await s.clearance(['status', runId], { lines: 3 });

  // the finding the merge kept, as round 1's output named it
  const [finding] = (await findings(ctx, { runId, status: 'open' })).findings.filter((f) => f.blocking);
  if (finding === undefined) throw new Error('demo: round 1 should leave one blocking finding open');
  const fixed = (evidence: string) => ({ id: shortId(finding.id), status: 'fixed' as const, evidence });
  s.step(`Round 2: the author fixes ${MAJOR.file}; all three hand in`);
  await s.clearance(['capture', runId, '--input-sha', revision(2), '--touched', MAJOR.file]);
  await handIn(
    'security',
    report(runId, 2, revision(2), {
      decisions: [fixed('200 aborted requests now leave no socket behind')],
      reviewer: 'security',
    }),
  );
  await handIn(
    'correctness',
    report(runId, 2, revision(2), {
      decisions: [fixed('the handle is closed in a finally block; the abort test passes')],
      reviewer: 'correctness',
    }),
  );
  await handIn('style', report(runId, 2, revision(2), { reviewer: 'style' }));
  await s.clearance(['record', runId, '--merge']);

  s.step(`Replay ${runId}: every contribution, the absence, and what each merged round was made of`);
  await s.clearance(['replay', runId]);
};
