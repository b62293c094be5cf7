import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildScenario, ids, LEAK, RUN_ID } from '../render/scenario.js';
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
});
