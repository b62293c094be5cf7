import { PRESETS } from '@clearance/fold/internal/events/policy.js';
import { MAJOR, report, revision, writeReport } from './scenario.js';
import type { Session } from './session.js';

/** A loop that hits the cap: nobody touches the file with the major, so it is never decided. */
export const blockedLoop = async (s: Session, runId: string): Promise<void> => {
  const cap = PRESETS.default.maxRounds;
  s.step(`A second run, ${runId}, under the default policy: the major is never addressed`);
  await s.clearance(['open', runId, '--input-sha', revision(1)]);
  await writeReport(s, 'blocked/round-1.json', report(runId, 1, revision(1), { candidates: [MAJOR] }));
  await s.clearance(['record', runId, '--report', 'blocked/round-1.json']);

  s.step(`Rounds 2 to ${cap}: only README.md changes, so the finding carries forward to the cap`);
  for (let round = 2; round <= cap; round += 1) {
    await s.clearance(['capture', runId, '--input-sha', revision(round), '--touched', 'README.md']);
    await writeReport(s, `blocked/round-${round}.json`, report(runId, round, revision(round)));
    await s.clearance(['record', runId, '--report', `blocked/round-${round}.json`]);
  }

  s.step('Why it is blocked, and a 5th round refused');
  await s.clearance(['explain', runId], { lines: 6 });
  await s.clearance(['capture', runId, '--input-sha', revision(cap + 1), '--touched', MAJOR.file], {
    exit: 1,
  });
};
