import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/git-repo.js';
import { buildScenario, ids, LEAK, RUN_ID, type Scenario } from './scenario.js';

let scenario: Scenario;
let page: string;
let document: ReturnType<typeof parseHTML>['document'];

beforeAll(async () => {
  scenario = await buildScenario(tempDir('clearance-html-'));
  const file = path.join(scenario.dir, 'report.html');
  const written = await scenario.run('report', RUN_ID, '--html', file, '--json');
  expect(written.code, written.stderr).toBe(0);
  expect(written.json).toMatchObject({ ok: true, runId: RUN_ID, file, status: 'blocked' });
  page = await readFile(file, 'utf8');
  document = parseHTML(page).document;
}, 300_000);
const text = (selector: string): string =>
  document.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const all = (selector: string) => [...document.querySelectorAll(selector)];

describe('clearance report --html', () => {
  it('says the verdict and why', () => {
    expect(text('#verdict')).toBe('blocked');
    expect(text('#why')).toBe(
      'blocked at round 3, the cap of 3 rounds: 1 blocking finding is still open; exhaustion is never convergence',
    );
    expect(text('title')).toBe(`clearance: ${RUN_ID} is blocked`);
    expect(all('#blocking li[data-finding]').map((li) => li.getAttribute('data-finding'))).toEqual([
      ids.leak,
    ]);
    expect(text('#blocking')).toContain(
      'ruled withdrawn by Ada Lovelace after round 2: the client retries on 5xx, checked by hand',
    );
    expect(text('#blocking')).toContain(
      'extended by 1 round(s) by Grace Hopper after round 2: the fix for the leak landed after the cap',
    );
  });

  it('shows every round and the timeline: stages, a failure, rulings and an extension', () => {
    expect(text('#rounds h2')).toBe('Rounds: 3 of 3');
    expect(
      all('#rounds tr[data-round]').map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    ).toEqual([
      // round, result, new, fixed, withdrawn, reopened, deferred, open, blocking, files, spent, reason
      ['1', 'complete', '4', '0', '0', '0', '0', '4', '3', '0', '1,500 tokens, $0.35', ''],
      ['2', 'complete', '0', '1', '1', '0', '0', '2', '2', '3', '$0.30', ''],
      ['3', 'complete', '0', '0', '0', '0', '0', '1', '1', '1', '$0.40', ''],
    ]);
    expect(all('#round-table th').map((th) => th.textContent)).toEqual([
      'round',
      'result',
      'new',
      'fixed',
      'withdrawn',
      'reopened',
      'deferred',
      'open',
      'blocking',
      'files',
      'spent',
      'reason',
    ]);
    const types = all('#timeline li[data-type]').map((li) => li.getAttribute('data-type'));
    expect(types.filter((t) => t === 'round.recorded')).toHaveLength(3);
    for (const t of [
      'run.opened',
      'revision.captured',
      'stage.started',
      'stage.failed',
      'stage.finished',
      'round.failed',
      'finding.ruled',
      'rounds.extended',
    ])
      expect(types).toContain(t);
    const timeline = text('#timeline');
    expect(timeline).toContain('stage planning failed under planner ($0.10): the model timed out');
    expect(timeline).toContain('attempt failed (timeout)');
    expect(timeline).toContain('by tester');
  });

  it('draws the trend: blocking open after each round, new against fixed, with the values written out', () => {
    const values = (selector: string) => all(selector).map((g) => Number(g.getAttribute('data-value')));
    expect(values('#chart-blocking .point')).toEqual([3, 2, 1]);
    expect(values('#chart-flow .bar.new')).toEqual([4, 0, 0]);
    expect(values('#chart-flow .bar.fixed')).toEqual([0, 1, 0]);
    // each chart names itself and says every value, for a reader who cannot see it
    expect(text('#chart-blocking title')).toBe('Blocking findings open after each round');
    expect(text('#chart-blocking desc')).toBe(
      'Blocking findings open, after round 1: 3; after round 2: 2; after round 3: 1.',
    );
    expect(text('#chart-flow desc')).toBe(
      'Findings opened and fixed, round 1: 4 new, 0 fixed; round 2: 0 new, 1 fixed; round 3: 0 new, 0 fixed.',
    );
    expect(document.querySelector('#chart-flow')?.getAttribute('aria-labelledby')).toBe(
      'chart-flow-title chart-flow-desc',
    );
    // a bar's height is its value on the chart's scale (4 at the top); a zero is a bar of no height
    const heights = all('#chart-flow .bar rect').map((r) => Number(r.getAttribute('height')));
    expect(Math.max(...heights)).toBeGreaterThan(0);
    expect(heights.filter((h) => h > 0)).toHaveLength(2);
    const [tallest, fixedOne] = [heights[0] as number, heights[3] as number];
    expect(fixedOne).toBeCloseTo(tallest / 4, 0);
    // the advisory trend, in words: 3, 2, 1 fell in each of the last two rounds
    expect(document.querySelector('#trend')?.getAttribute('data-trend')).toBe('converging');
    expect(text('#trend')).toBe(
      'trend: converging (advisory, never the verdict): the blocking findings open fell in each of the last two rounds (blocking open: 3 after round 1, 2 after round 2, 1 after round 3)',
    );
    // no same-input round is allowed or held: nothing is said of them; nothing was deferred
    expect(document.querySelector('#same-input')).toBeNull();
    expect(text('#deferred h2')).toBe('Deferred to a follow-up: 0');
    expect(page).not.toMatch(/<script|xmlns=/i);
  });

  it('lists the findings by the round they opened in, with history, evidence and citations', () => {
    expect(all('#findings section.round').map((s) => s.getAttribute('data-round'))).toEqual(['1']);
    expect(all('article.finding').map((a) => a.getAttribute('data-finding'))).toEqual([
      ids.leak,
      ids.style,
      ids.statusCheck,
      ids.offByOne,
    ]);
    const leak = document.querySelector(`#finding-${ids.leak}`);
    expect(leak?.querySelector('.citation')?.textContent).toBe('src/service.js:10');
    expect(leak?.querySelector('dd.evidence')?.textContent).toBe(LEAK.evidence);
    expect([...(leak?.querySelectorAll('ol.history li') ?? [])].map((li) => li.textContent)).toEqual([
      'round 1: opened, open (by tester)',
      'round 2: decided, open (by tester): the line moved to 14; still leaks',
      'round 3: decided, open (by tester): the finally block never runs on abort',
    ]);
    const ruled = document.querySelector(`#finding-${ids.statusCheck}`);
    expect(ruled?.querySelector('.citation')?.textContent).toBe('src/client.js:5');
    expect(ruled?.textContent).toContain(
      'round 2: ruled, withdrawn (by Ada Lovelace): the client retries on 5xx, checked by hand',
    );
  });

  it('shows the cost by round, stage and runner', () => {
    expect(text('#cost .panel')).toBe('Spent 1,500 tokens, $1.05 of $5.00; left $3.95.');
    expect(all('#cost tbody tr')).toHaveLength(4);
    expect(text('#cost')).toContain('by opus-expert: $0.40');
  });

  it('escapes everything: markup in the log is text on the page', () => {
    expect(all('script')).toHaveLength(0);
    expect(all('b')).toHaveLength(0);
    expect(document.querySelector(`#finding-${ids.leak} .summary`)?.textContent).toBe(LEAK.summary);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('is self-contained: no script, no external resource, a policy that forbids loading any', () => {
    expect(all('link, img, iframe, object, embed, audio, video, source')).toHaveLength(0);
    for (const el of all('[href]')) expect(el.getAttribute('href')).toMatch(/^#/);
    expect(all('[src]')).toHaveLength(0);
    expect(page).not.toMatch(/https?:\/\//);
    expect(
      document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
    ).toMatch(/^default-src 'none';/);
  });

  it('refuses a file it cannot write with exit 73, naming it', async () => {
    const target = path.join(scenario.dir, 'no-such-dir', 'report.html');
    const refused = await scenario.run('report', RUN_ID, '--html', target, '--json');
    expect(refused.code).toBe(73);
    expect(refused.json).toMatchObject({
      ok: false,
      error: {
        code: 'output-unwritable',
        message: `cannot write the report ${target} (ENOENT): check the path and its directory`,
      },
    });
    const usage = await scenario.run('report', RUN_ID);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/required option '--html <file>'/);
  });
});
