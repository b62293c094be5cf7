import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { afterEach, describe, expect, it } from 'vitest';
import { findingId } from '../../src/events/finding-id.js';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { call, stdioClient, stopAll, succeeded } from '../support/mcp-clients.js';
import { tempDir } from '../support/tmp.js';

afterEach(stopAll);

/**
 * The brief an agent reviewer starts a round from, as the MCP prompt `review-brief`, through the
 * SDK's own client: the input, the report to hand back, the findings to decide, the feedback.
 */
describe('the review-brief prompt', () => {
  it('lists the open finding of a touched file to decide, the input and the report shape; a hostile summary stays inert', async () => {
    const store = await tempDir();
    const hostile = '[x](http://evil) <img src=x> # heading';
    const major = candidate({ summary: hostile });
    expect((await cli(['--dir', store, 'open', 'pr-9', '--input-sha', sha('a')])).code).toBe(0);
    const r1 = path.join(store, '..', `${path.basename(store)}-r1.json`);
    await writeFile(r1, JSON.stringify(report(1, 'a', { runId: 'pr-9', candidates: [major] })));
    expect((await cli(['--dir', store, 'record', 'pr-9', '--report', r1])).code).toBe(0);
    const client = await stdioClient(['--dir', store]);
    succeeded(await call(client, 'capture', { runId: 'pr-9', inputSha: sha('b'), touched: [major.file] }));
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['review-brief']);
    const got = await client.getPrompt({ name: 'review-brief', arguments: { runId: 'pr-9' } });
    const [message] = got.messages;
    const text = message?.content.type === 'text' ? message.content.text : '';
    expect(text).toContain('# Review brief: run pr-9, round 2 of');
    expect(text).toContain(
      `Review input ${sha('b')}: the files changed since the last reviewed input: ${major.file}`,
    );
    expect(text).toContain('## To decide');
    expect(text).toContain(`\`${findingId(major).slice(0, 12)}\``);
    expect(text).toContain('"inputSha":"b000000000000000000000000000000000000000"');
    expect(text).toContain('## Review feedback, round 1');
    const html = new MarkdownIt('commonmark').render(text);
    expect(html).not.toMatch(/<a |<img|<h1>heading/);
    await client.close();
  });

  it('lists a finding the author disputed, in a file the input did not touch, to decide, with the reason inert', async () => {
    const store = await tempDir();
    const major = candidate({ file: 'src/pool.ts' });
    expect((await cli(['--dir', store, 'open', 'pr-8', '--input-sha', sha('a')])).code).toBe(0);
    const r1 = path.join(store, '..', `${path.basename(store)}-r1.json`);
    await writeFile(r1, JSON.stringify(report(1, 'a', { runId: 'pr-8', candidates: [major] })));
    expect((await cli(['--dir', store, 'record', 'pr-8', '--report', r1])).code).toBe(0);
    const client = await stdioClient(['--dir', store]);
    const reason = 'pool.ts:88 closes it <img src=x> [y](http://evil)';
    const id = findingId(major);
    succeeded(await call(client, 'dispute', { runId: 'pr-8', finding: id.slice(0, 12), reason }));
    succeeded(
      await call(client, 'capture', { runId: 'pr-8', inputSha: sha('b'), touched: ['src/other.ts'] }),
    );
    const got = await client.getPrompt({ name: 'review-brief', arguments: { runId: 'pr-8' } });
    const [message] = got.messages;
    const text = message?.content.type === 'text' ? message.content.text : '';
    const toDecide = text.slice(text.indexOf('## To decide'));
    expect(toDecide).toContain(`\`${id.slice(0, 12)}\``);
    expect(toDecide).toContain('Disputed by the author:');
    expect(toDecide).toContain('decide it `open` to uphold it, `withdrawn` to accept the dispute');
    expect(text).not.toContain('carry forward');
    const html = new MarkdownIt('commonmark').render(text);
    expect(html).not.toMatch(/<a |<img/);
    await client.close();
  });

  it('a run that does not exist or a bad run id is refused with a named error', async () => {
    const store = await tempDir();
    const client = await stdioClient(['--dir', store]);
    await expect(client.getPrompt({ name: 'review-brief', arguments: { runId: 'nope' } })).rejects.toThrow(
      /no run nope .*: open it first \[run-missing\]/,
    );
    await expect(client.getPrompt({ name: 'review-brief', arguments: { runId: '../x' } })).rejects.toThrow(
      /review-brief needs runId/,
    );
    await expect(client.getPrompt({ name: 'other', arguments: {} })).rejects.toThrow(/no prompt "other"/);
    await client.close();
  });
});
