import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { report, writeReport } from './scenario.js';
import type { Session } from './session.js';

const POLICY = {
  name: 'ci-required',
  maxRounds: 4,
  severities: { major: { blocks: true }, nit: { blocks: false } },
  stages: [],
  checks: { required: ['test'], optional: ['docs'] },
};
const SPEC = '# Spec\n\nThe service closes every handle.\n';
const FIXED = '# Spec\n\nThe service closes every handle, on abort too.\n';
const TEST_LOG = 'https://github.com/acme/service/actions/runs/4711/job/1';
/** What `gh pr checks --json name,state,link` printed once CI finished on the fix. */
const GH_CHECKS = [
  { name: 'test', state: 'SUCCESS', link: TEST_LOG.replace('4711', '4712') },
  { name: 'docs', state: 'FAILURE', link: TEST_LOG.replace('4711/job/1', '4712/job/2') },
];

/**
 * Required CI checks, on a document so no git is needed: the report waits for the checks, a
 * required check that failed ends the round ci_failed with its link as the feedback, the next
 * input's checks pass (an optional one fails, noted), and the gate approves.
 */
export const checksLoop = async (s: Session, runId: string): Promise<void> => {
  s.step(`A run whose policy requires CI: ${runId}, where test must pass (docs is optional)`);
  await s.write('checks/ci-required.json', `${JSON.stringify(POLICY)}\n`, 'the policy', { show: true });
  await s.write('checks/spec.md', SPEC, 'the document under review');
  await s.clearance([
    'open',
    runId,
    '--policy-file',
    'checks/ci-required.json',
    '--artifact',
    'checks/spec.md',
  ]);

  s.step('Round 1: the report comes before CI has reported, and waits for it');
  // a document's input is the SHA-256 of its bytes
  await writeReport(s, 'checks/round-1.json', report(runId, 1, sha256Hex(SPEC)));
  await s.clearance(['record', runId, '--report', 'checks/round-1.json'], { exit: 1 });

  s.step('CI finished: test failed. The round ends ci_failed: a diagnosis instead of a review');
  await s.clearance(['checks', runId, '--check', 'test=failed', '--url', TEST_LOG, '--check', 'docs=passed']);
  await s.clearance(['feedback', runId]);

  s.step('The author fixes it; round 2: test passes, docs fails (optional: noted), the report converges');
  await s.write('checks/spec.md', FIXED, 'the fix');
  await s.clearance(['capture', runId]);
  await s.write(
    'checks/checks.json',
    `${JSON.stringify(GH_CHECKS)}\n`,
    'what gh pr checks --json name,state,link prints once CI finished',
    {
      show: true,
    },
  );
  await s.clearance(['checks', runId, '--from', 'checks/checks.json']);
  await writeReport(s, 'checks/round-2.json', report(runId, 2, sha256Hex(FIXED)));
  await s.clearance(['record', runId, '--report', 'checks/round-2.json']);

  s.step(
    'The gate approves: converged, the bytes in front of it reviewed, every required check passed on them',
  );
  await s.clearance(['gate', runId]);
};
