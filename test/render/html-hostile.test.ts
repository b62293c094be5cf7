import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlReport } from '../../src/render/html.js';
import { html } from '../../src/render/html-template.js';
import { historyOf } from '../../src/render/run-history.js';
import { htmlText } from '../../src/text/untrusted.js';
import { ALL_HOSTILE, HOSTILE, HOSTILE_STRINGS } from '../support/actions-runner.js';
import { evolve } from '../support/decider.js';
import { accepted, blockedRun, checksRun, convergedRun, deferringRun, logged } from './hostile-runs.js';

/**
 * `report --html` writes a page a person opens to audit a verdict. Every value from the log is text
 * on it: no element of its own, no raw control, and a bidi control only inside a `<bdi>` element,
 * so that it cannot reorder the page around it (Trojan Source), nor show raw in an attribute.
 */

const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls a page must not hold raw
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;

type Node = { nodeType: number; textContent: string | null; childNodes: ArrayLike<Node>; nodeName: string };

/** Every text node with the names of the elements it sits in, outermost first. */
const textNodes = (node: Node, path: string[] = []): Array<{ text: string; path: string[] }> =>
  Array.from(node.childNodes).flatMap((child) =>
    child.nodeType === 3
      ? [{ text: child.textContent ?? '', path }]
      : textNodes(child, [...path, child.nodeName.toLowerCase()]),
  );

const pageOf = (events: ReturnType<typeof blockedRun>, by: string) => {
  const page = htmlReport(historyOf(evolve, logged(events, by)), { toolVersion: '0.0.0-test' });
  return { page, document: parseHTML(page).document };
};

/** A value as a reader of the page sees it: its HTML text, parsed (controls shown as escapes). */
const asText = (s: string): string =>
  parseHTML(`<!doctype html><html><body><p>${htmlText(s)}</p></body></html>`).document.querySelector('p')
    ?.textContent ?? '';

const tagsOf = (document: ReturnType<typeof parseHTML>['document']): string[] =>
  [...document.querySelectorAll('*')].map((el) => el.tagName.toLowerCase());

describe('the HTML report of runs folded from hostile events', () => {
  for (const h of [...HOSTILE_STRINGS, ALL_HOSTILE])
    for (const run of [blockedRun, convergedRun, checksRun, deferringRun])
      it(`${run.name}: ${JSON.stringify(h).slice(0, 40)}`, () => {
        const { page, document } = pageOf(run(h), h);
        const benign = pageOf(run('benign'), 'benign').document;
        // no element of a value's own: the same elements as with plain values, and isolates
        expect(tagsOf(document).filter((tag) => tag !== 'bdi')).toEqual(tagsOf(benign));
        expect(page).not.toMatch(CONTROL);
        const outside = textNodes(document as unknown as Node).filter(
          ({ text, path }) => BIDI.test(text) && !path.includes('bdi'),
        );
        expect(outside).toEqual([]);
        for (const el of document.querySelectorAll('*'))
          for (const name of el.getAttributeNames()) expect(el.getAttribute(name)).not.toMatch(BIDI);
        expect(
          document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
        ).toMatch(/^default-src 'none';/);
      });

  for (const h of [...HOSTILE_STRINGS, ALL_HOSTILE])
    it(`the deferred candidates and a same-input capture are text: ${JSON.stringify(h).slice(0, 40)}`, () => {
      const { document } = pageOf(deferringRun(h), h);
      // the fold deferred both, with h's summary, severity, evidence and reviewer
      expect(accepted(deferringRun(h)).deferred.size).toBe(2);
      const items = [...document.querySelectorAll('#deferred li[data-candidate]')];
      expect(items.map((li) => li.querySelector('.summary')?.textContent)).toEqual([
        asText(`${h} late`),
        asText(`${h} outside`),
      ]);
      expect(items.map((li) => li.querySelector('.evidence')?.textContent)).toEqual([asText(h), asText(h)]);
      expect(items[0]?.querySelector('dd')?.textContent).toBe(
        `${asText(h)} late is admitted until round 1; this came in round 2`,
      );
      const timeline = document.querySelector('#timeline')?.textContent ?? '';
      expect(timeline).toContain('to a follow-up (new in round 2, in a file the last fix did not touch)');
      const blocked = pageOf(blockedRun(h), h).document;
      const sameInput = [...blocked.querySelectorAll('#timeline li[data-type="revision.captured"] li')].map(
        (li) => li.textContent,
      );
      expect(sameInput).toEqual([`the same input again: ${asText(h)}`]);
      // the author's dispute and its ruling, on the finding and in the timeline; the refuted
      // candidate offered again, kept as refuted before
      const disputes = [...blocked.querySelectorAll('article.finding dd.dispute')].map(
        (dd) => dd.textContent,
      );
      expect(disputes).toEqual([`for round 2: ${asText(h)}; upheld in round 2: ${asText(h)}`]);
      const rounds = [...blocked.querySelectorAll('#timeline li[data-type="round.recorded"] li')].map(
        (li) => li.textContent ?? '',
      );
      expect(rounds.filter((t) => t.startsWith('refuted before:'))).toHaveLength(1);
      expect(rounds.filter((t) => t.startsWith('dispute of '))).toEqual([
        expect.stringMatching(/^dispute of [0-9a-f]{12} upheld in round 2: /),
      ]);
      const disputed = [...blocked.querySelectorAll('#timeline li[data-type="finding.disputed"] li')].map(
        (li) => li.textContent,
      );
      expect(disputed).toEqual([expect.stringMatching(/^dispute of [0-9a-f]{12} for round 2: /)]);
    });

  it('a summary holding U+202E is one <bdi> element, its text as written', () => {
    const { document } = pageOf(convergedRun(HOSTILE.bidi), 'tester');
    const summary = document.querySelector('article.finding .summary');
    expect(summary?.innerHTML).toBe(`<bdi>${HOSTILE.bidi}</bdi>`);
    expect(summary?.textContent).toBe(HOSTILE.bidi);
  });
});

describe('the HTML template encodes a value for where it lands', () => {
  const s = 'a\u202eb"<c>&\u001b';

  it('text content: escaped, controls shown, a bidi control isolated', () => {
    expect(html`<p>${s}</p>`.markup).toBe('<p><bdi>a\u202eb&quot;&lt;c&gt;&amp;\\u001b</bdi></p>');
    expect(html`<p>${'plain & simple'}</p>`.markup).toBe('<p>plain &amp; simple</p>');
  });

  it('an attribute value, however many a tag holds: every control and bidi character shown', () => {
    expect(html`<a class="x ${s}${'y'}" data-v="${s}">${'t'}</a>`.markup).toBe(
      '<a class="x a\\u202eb&quot;&lt;c&gt;&amp;\\u001by" data-v="a\\u202eb&quot;&lt;c&gt;&amp;\\u001b">t</a>',
    );
  });

  it('the title, whose text is never markup: as an attribute, no <bdi> to show as text', () => {
    expect(html`<title>r: ${s}</title><p>${s}</p>`.markup).toBe(
      '<title>r: a\\u202eb&quot;&lt;c&gt;&amp;\\u001b</title><p><bdi>a\u202eb&quot;&lt;c&gt;&amp;\\u001b</bdi></p>',
    );
  });

  it('markup the module built passes as it is, wherever it lands', () => {
    const inner = html`<b>${s}</b>`;
    expect(html`<p>${inner}</p>`.markup).toBe(`<p>${inner.markup}</p>`);
  });
});
