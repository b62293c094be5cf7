import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { roundRecorded } from '../../src/index.js';
import { historyOf } from '../../src/render/history.js';
import { htmlReport } from '../../src/render/html.js';
import { logged } from '../render/hostile-runs.js';
import { buildScenario, ids, LEAK, RUN_ID } from '../render/scenario.js';
import { candidate, captured, opened, report } from '../support/builders.js';
import { tempDir } from '../support/git-repo.js';

/**
 * The HTML report in a real browser: Debian's chromium, driven by playwright-core, with
 * JavaScript off and a fresh profile. Saves a screenshot under test/browser/artifacts/.
 */
const CHROMIUM = process.env.CLEARANCE_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
    args: ARGS,
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
  await writeFile(file, htmlReport(historyOf(logged(events, 'tester')), { toolVersion: '0.0.0-test' }));
  return file;
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
      args: ARGS,
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
