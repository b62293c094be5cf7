import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Policy, PRESETS } from '@clearance/fold/internal/events/policy.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import { isClearanceError } from '../../errors.js';
import { capture } from '../../operations/capture.js';
import { checks } from '../../operations/checks.js';
import { feedback } from '../../operations/feedback.js';
import { gate } from '../../operations/gate.js';
import { open } from '../../operations/open.js';
import { checksText } from '../checks-text.js';
import type { Context } from '../context.js';
import { recordedText } from '../recorded-text.js';
import { recordReport } from './loop.js';
import type { Narrator } from './narrator.js';
import { report } from './scenario.js';

const POLICY: Policy = {
  ...PRESETS.default,
  name: 'ci-required',
  stages: [],
  checks: { required: ['test'], optional: ['docs'], expectedSkips: [] },
};
const TEST_LOG = 'https://github.com/acme/service/actions/runs/4711/job/1';

/**
 * Required CI checks, on a document so no git is needed: the report waits for the checks, a
 * required check that failed ends the round ci_failed with its link as the feedback, the next
 * input's checks pass (an optional one fails, noted), and the gate approves.
 */
export const checksLoop = async (ctx: Context, n: Narrator, runId: string): Promise<void> => {
  const c = ctx.color;
  const refused = async (attempt: () => Promise<unknown>): Promise<string> => {
    try {
      await attempt();
      return c.red('unexpected: it was accepted');
    } catch (error) {
      if (!isClearanceError(error)) throw error;
      return `${c.red('✗ refused')} ${error.code}: ${t(error.message)}`;
    }
  };
  const folder = await mkdtemp(path.join(os.tmpdir(), 'clearance-demo-ci-'));
  const spec = path.join(folder, 'spec.md');
  await writeFile(spec, '# Spec\n\nThe service closes every handle.\n');

  n.step(`A run whose policy requires CI: ${runId}, where test must pass (docs is optional)`);
  n.command(`open ${runId} --policy-file ci-required.json --artifact spec.md`);
  const opened = await open(ctx, { runId, policy: POLICY, artifact: spec });
  const input1 = opened.capture?.inputSha ?? '';

  n.step('Round 1: the report comes before CI has reported, and waits for it');
  n.command(`record ${runId} --report round-1.json`);
  n.say(await refused(() => recordReport(ctx, runId, report(runId, 1, input1))));

  n.step('CI finished: test failed. The round ends ci_failed: a diagnosis instead of a review');
  n.command(`checks ${runId} --check test=failed --url ${TEST_LOG} --check docs=passed`);
  const failed = await checks(ctx, {
    runId,
    checks: [
      { name: 'test', state: 'failed', url: TEST_LOG },
      { name: 'docs', state: 'passed' },
    ],
  });
  n.say(checksText(runId, failed));
  n.command(`feedback ${runId}`);
  const said = (await feedback(ctx, { runId })).markdown.split('\n').find((l) => l.includes('CI failed'));
  n.say(c.dim(said ?? ''));

  n.step('The author fixes it; round 2: test passes, docs fails (optional: noted), the report converges');
  await writeFile(spec, '# Spec\n\nThe service closes every handle, on abort too.\n');
  n.command(`capture ${runId} --artifact spec.md`);
  const input2 = (await capture(ctx, { runId, artifact: spec })).capture.inputSha;
  n.command(`checks ${runId} --from checks.json`);
  n.say(c.dim('checks.json: what gh pr checks --json name,state,link printed once CI finished'));
  const passed = await checks(ctx, {
    runId,
    checks: [
      { name: 'test', state: 'passed', url: TEST_LOG.replace('4711', '4712') },
      { name: 'docs', state: 'failed' },
    ],
  });
  n.say(checksText(runId, passed));
  n.command(`record ${runId} --report round-2.json`);
  n.say(recordedText(c, await recordReport(ctx, runId, report(runId, 2, input2))));

  n.step(
    'The gate approves: converged, the bytes in front of it reviewed, every required check passed on them',
  );
  n.command(`gate ${runId} --artifact spec.md`);
  n.say(`${c.green('✓')} ${t((await gate(ctx, { runId, artifact: spec })).message)}`);
};
