import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Locator, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { type DomainEvent, PRESETS, roundRecorded } from '../../src/index.js';
import { htmlReport } from '../../src/render/html.js';
import { historyOf } from '../../src/render/run-history.js';
import { logged } from '../render/hostile-runs.js';
import { buildScenario, ids, LEAK, RUN_ID } from '../render/scenario.js';
import { candidate, captured, decision, opened, report, sha } from '../support/builders.js';
import { evolve } from '../support/decider.js';
import { tempDir } from '../support/git-repo.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

/**
 * The HTML report in a real browser: Debian's chromium, driven by playwright-core, with
 * JavaScript off and a fresh profile. Saves a screenshot under test/browser/artifacts/.
 */
const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

/** The text as rendered (layout and CSS applied): what a reader sees, not the DOM's text. */
const seen = (locator: Locator): Promise<string> =>
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point of this test
  locator.innerText();

/** Open each page in one fresh headless Chromium, JavaScript off; `look` reads what it needs. */
const inChromium = async <T>(
  files: ReadonlyArray<string>,
  look: (page: Page) => Promise<T>,
): Promise<T[]> => {
  if (!existsSync(CHROMIUM))
    throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium (or set CLEARANCE_CHROMIUM)`);
  const profile = await mkdtemp(path.join(os.tmpdir(), 'clearance-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    javaScriptEnabled: false,
    viewport: { width: 1200, height: 900 },
  });
  try {
    const seenPages: T[] = [];
    for (const file of files) {
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      seenPages.push(await look(page));
    }
    return seenPages;
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
};

/** A run open after round 1 with one blocking finding whose summary is `summary`, as a page on disk. */
const pageWith = async (dir: string, name: string, summary: string): Promise<string> => {
  const events = [
    opened(),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { candidates: [candidate({ summary })] })),
  ];
  const file = path.join(dir, `${name}.html`);
  await writeFile(
    file,
    htmlReport(historyOf(evolve, logged(events, 'tester')), { toolVersion: '0.0.0-test' }),
  );
  return file;
};

/**
 * Four rounds under the converging preset: three blocking findings, one fixed in round 2 while a
 * new one opens, two fixed in round 3 while a late minor is deferred, one kept open in round 4
 * (reviewed on the same input, a recorded choice). Blocking open: 3, 3, 1, 1; new: 4, 1, 0, 0;
 * fixed: 0, 1, 2, 0.
 */
const trendPage = async (dir: string): Promise<string> => {
  const major = (n: number) => candidate({ line: n, summary: `major ${n}` });
  const minor = (n: number) =>
    candidate({ file: 'src/api.js', line: n, summary: `minor ${n}`, severity: 'minor' });
  const events: DomainEvent[] = [
    opened({ ...PRESETS.converging, maxRounds: 6, sameInputRounds: 1 }),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { reviewer: 'ada', candidates: [major(1), major(2), major(3), minor(1)] })),
    captured(2, 'B', { touched: ['src/service.js'] }),
    roundRecorded(
      report(2, 'B', {
        candidates: [major(4)],
        decisions: [decision(major(1), 'fixed'), decision(major(2), 'open'), decision(major(3), 'open')],
      }),
    ),
    captured(3, 'C', { touched: ['src/service.js', 'src/api.js'] }),
    roundRecorded(
      report(3, 'C', {
        reviewer: 'bob',
        candidates: [minor(9)],
        decisions: [
          decision(major(2), 'fixed'),
          decision(major(3), 'fixed'),
          decision(major(4), 'open'),
          decision(minor(1), 'open'),
        ],
      }),
    ),
    {
      type: 'revision.captured',
      data: {
        round: 4,
        inputSha: sha('C'),
        touchedFiles: [],
        renames: [],
        sameInput: { reason: 'a flaky reviewer' },
      },
    },
    roundRecorded(report(4, 'C')),
  ];
  const file = path.join(dir, 'trend.html');
  await writeFile(
    file,
    htmlReport(historyOf(evolve, logged(events, 'tester')), { toolVersion: '0.0.0-test' }),
  );
  return file;
};

/**
 * A screenshot read pixel by pixel: its most common colour (the background, for a chart), how
 * many pixels differ from it (the ink), and how many colours it holds.
 */
const inkOf = (png: Buffer): Readonly<{ mode: number; ink: number; total: number; colours: number }> => {
  const { data, width, height } = PNG.sync.read(png);
  const counts = new Map<number, number>();
  for (let i = 0; i < data.length; i += 4) {
    const rgb = ((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number);
    counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
  }
  const [mode, most] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
  return { mode, ink: width * height - most, total: width * height, colours: counts.size };
};

describe('clearance report --html in headless Chromium', () => {
  it('shows the verdict, every blocking finding and the round count, loading nothing else', async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium (or set CLEARANCE_CHROMIUM)`);
    const scenario = await buildScenario(tempDir('clearance-browser-'));
    const file = path.join(scenario.dir, 'report.html');
    expect((await scenario.run('report', RUN_ID, '--html', file)).code).toBe(0);
    const blocking = JSON.parse((await scenario.run('explain', RUN_ID, '--json')).stdout) as {
      blocking: Array<{ id: string; summary: string }>;
    };
    expect(blocking.blocking.map((b) => b.id)).toEqual([ids.leak]);

    const profile = await mkdtemp(path.join(os.tmpdir(), 'clearance-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      javaScriptEnabled: false,
      viewport: { width: 1200, height: 900 },
    });
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(pathToFileURL(file).href);

      const verdict = page.locator('#verdict');
      expect(await verdict.isVisible()).toBe(true);
      expect(await seen(verdict)).toMatch(/^blocked$/i);
      expect(await page.locator('#why').isVisible()).toBe(true);
      for (const b of blocking.blocking) {
        const item = page.locator(`#blocking li[data-finding="${b.id}"]`);
        expect(await item.isVisible()).toBe(true);
        expect(await seen(item)).toContain(b.summary);
      }
      expect(await page.getByText(LEAK.summary).first().isVisible()).toBe(true);
      const rounds = page.locator('#rounds h2');
      expect(await rounds.isVisible()).toBe(true);
      expect(await seen(rounds)).toBe('Rounds: 3 of 3');
      expect(await page.locator('#round-count').isVisible()).toBe(true);
      expect(await seen(page.locator('#round-count'))).toMatch(/^Round 3 of 3/);
      // the page is all there is: nothing else was requested
      expect(requested).toEqual([pathToFileURL(file).href]);

      await mkdir(ARTIFACTS, { recursive: true });
      const shot = path.join(ARTIFACTS, 'report.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(existsSync(shot)).toBe(true);
      console.log(`screenshot: ${shot}`);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  it('draws the trend: a point per round on the blocking line, a pair of bars per round, ink in the box, in print too', async () => {
    const dir = tempDir('clearance-browser-trend-');
    const file = await trendPage(dir);
    const [seenPage] = await inChromium([file], async (page) => {
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.reload();
      const boxes = async (selector: string) =>
        Promise.all(
          (await page.locator(selector).all()).map(async (el) => ({
            value: Number(await el.locator('xpath=..').getAttribute('data-value')),
            box: await el.boundingBox(),
          })),
        );
      const charts = page.locator('#trend-charts');
      const looked = {
        requested,
        chartsVisible: await charts.isVisible(),
        points: await boxes('#chart-blocking .point circle'),
        line: await page.locator('#chart-blocking polyline').boundingBox(),
        newBars: await boxes('#chart-flow .bar.new rect'),
        fixedBars: await boxes('#chart-flow .bar.fixed rect'),
        titles: [
          await page.locator('#chart-blocking > title').textContent(),
          await page.locator('#chart-flow > title').textContent(),
        ],
        trend: await seen(page.locator('#trend')),
        sameInput: await seen(page.locator('#same-input')),
        deferred: await seen(page.locator('#deferred li')),
        screen: {
          blocking: inkOf(await page.locator('#chart-blocking').screenshot()),
          flow: inkOf(await page.locator('#chart-flow').screenshot()),
          tallestBar: inkOf(await page.locator('#chart-flow .bar.new rect').first().screenshot()),
        },
      };
      await page.emulateMedia({ media: 'print' });
      const print = {
        chartsVisible: await charts.isVisible(),
        blocking: inkOf(await page.locator('#chart-blocking').screenshot()),
        flow: inkOf(await page.locator('#chart-flow').screenshot()),
      };
      await mkdir(ARTIFACTS, { recursive: true });
      await page.emulateMedia({ media: 'screen' });
      await page.screenshot({ path: path.join(ARTIFACTS, 'report-trend.png'), fullPage: true });
      return { ...looked, print };
    });
    if (seenPage === undefined) throw new Error('the page was not looked at');
    expect(seenPage.requested).toEqual([pathToFileURL(file).href]);
    expect(seenPage.chartsVisible).toBe(true);
    expect(seenPage.titles).toEqual(['Blocking findings open after each round', 'New and fixed per round']);

    // one point per round, each drawn, higher for more blocking findings
    expect(seenPage.points.map((p) => p.value)).toEqual([3, 3, 1, 1]);
    for (const { box } of seenPage.points) expect(box?.width ?? 0).toBeGreaterThan(4);
    const y = seenPage.points.map((p) => p.box?.y ?? 0);
    expect(Math.abs((y[0] ?? 0) - (y[1] ?? 0))).toBeLessThan(1);
    expect(y[2]).toBeGreaterThan((y[1] ?? 0) + 20);
    expect(seenPage.line?.width ?? 0).toBeGreaterThan(100);

    // a pair of bars per round: a bar's height is its value on one scale, a zero has none
    expect(seenPage.newBars.map((b) => b.value)).toEqual([4, 1, 0, 0]);
    expect(seenPage.fixedBars.map((b) => b.value)).toEqual([0, 1, 2, 0]);
    const bars = [...seenPage.newBars, ...seenPage.fixedBars];
    const unit = (seenPage.newBars[0]?.box?.height ?? 0) / 4;
    expect(unit).toBeGreaterThan(10);
    for (const { value, box } of bars) {
      if (value === 0) expect(box === null || box.height < 1).toBe(true);
      else {
        expect(box?.width ?? 0).toBeGreaterThan(4);
        // a fixed bar's outline adds its stroke to the box
        expect(Math.abs((box?.height ?? 0) - value * unit)).toBeLessThan(2);
      }
    }
    // the new bar of a round stands left of its fixed bar
    const [new2, fixed2] = [seenPage.newBars[1]?.box, seenPage.fixedBars[1]?.box];
    expect((new2?.x ?? 0) + (new2?.width ?? 0)).toBeLessThanOrEqual((fixed2?.x ?? 0) + 0.5);

    // what the screenshot shows in each chart's box is not all background: lines, bars, numbers
    for (const shot of [
      seenPage.screen.blocking,
      seenPage.screen.flow,
      seenPage.print.blocking,
      seenPage.print.flow,
    ]) {
      expect(shot.ink / shot.total).toBeGreaterThan(0.02);
      expect(shot.colours).toBeGreaterThan(3);
    }
    // on the page's white: a chart's commonest colour is the page, a bar's is its own fill
    const WHITE = 0xffffff;
    expect(seenPage.screen.blocking.mode).toBe(WHITE);
    expect(seenPage.screen.tallestBar.mode).not.toBe(WHITE);
    expect(seenPage.screen.tallestBar.ink / seenPage.screen.tallestBar.total).toBeLessThan(0.5);
    expect(seenPage.print.chartsVisible).toBe(true);

    // the words beside it: the trend is advisory, the same-input round and the deferred minor are named
    expect(seenPage.trend).toMatch(/^trend: flat \(advisory, never the verdict\)/);
    expect(seenPage.sameInput).toBe(
      'rounds on unchanged input: 1 of 1 allowed; round 4, because a flaky reviewer',
    );
    expect(seenPage.deferred).toContain('minor 9');
    expect(seenPage.deferred).toContain('minor is admitted until round 2; this came in round 3');
  });

  it('isolates a bidi override in a summary: the text after it on the page is not reordered', async () => {
    const dir = tempDir('clearance-browser-bidi-');
    const plain = await pageWith(dir, 'plain', 'Handle leaks on abort');
    const override = await pageWith(dir, 'override', 'Handle \u202eleaks on abort');
    const [without, withOverride] = await inChromium([plain, override], async (page) => {
      const item = page.locator('#blocking li[data-finding]');
      const after = item.locator('span.muted');
      return {
        isolates: await item.locator('bdi').evaluateAll((els) => els.map((el) => el.textContent)),
        after: { text: await after.textContent(), box: await after.boundingBox() },
        isolate: (await item.locator('bdi').count()) > 0 ? await item.locator('bdi').boundingBox() : null,
      };
    });
    expect(without?.isolates).toEqual([]);
    // in the DOM: the summary, override and all, is one <bdi> element
    expect(withOverride?.isolates).toEqual(['Handle \u202eleaks on abort']);
    // the neighbour reads the same and stands where it stood: right of the summary, on its line
    const shape = /^\(open 1 round\(s\), [0-9a-f]{12}\)$/;
    expect(without?.after.text).toMatch(shape);
    expect(withOverride?.after.text).toMatch(shape);
    const [a, b] = [without?.after.box, withOverride?.after.box];
    if (a == null || b == null) throw new Error('the span after the summary is not on the page');
    expect(Math.abs(a.x - b.x)).toBeLessThan(1);
    expect(Math.abs(a.y - b.y)).toBeLessThan(1);
    expect(Math.abs(a.height - b.height)).toBeLessThan(1);
    // and right of the isolated summary itself, as in a left-to-right line
    const isolate = withOverride?.isolate;
    if (isolate == null) throw new Error('the isolated summary is not on the page');
    expect(b.x).toBeGreaterThanOrEqual(isolate.x + isolate.width - 1);
    expect(Math.abs(b.y - isolate.y)).toBeLessThan(isolate.height);
  });
});
