import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  decodeStoredEvent,
  EVENT_TYPES,
  encodeLine,
  latestVersion,
  type StoredEvent,
  sha256Hex,
} from '../../src/index.js';
import { fencedBlocks, ROOT } from './markdown.js';

/**
 * docs/log-format.md says which types and versions a log holds and shows a real line: its table is
 * the registry's, type by type, and its example is what today's writer writes, byte for byte.
 */
const doc = readFileSync(path.join(ROOT, 'docs/log-format.md'), 'utf8');

describe('docs/log-format.md', () => {
  it("lists every event type at the registry's latest version, and no other", () => {
    const table = doc.slice(doc.indexOf("Today's types and versions:"));
    const rows = [
      ...table.slice(0, table.indexOf('\n\n', table.indexOf('|'))).matchAll(/^\| `([a-z.]+)` +\| (\d+) /gm),
    ];
    expect(Object.fromEntries(rows.map(([, type, v]) => [type, Number(v)]))).toEqual(
      Object.fromEntries(EVENT_TYPES.map((type) => [type, latestVersion(type)])),
    );
  });

  it('shows a line as the writer writes it today, chained to the hashes it shows', () => {
    const blocks = fencedBlocks(doc, '').map((b) => b.code);
    const line = blocks.find((code) => code.startsWith('{"seq":2,'))?.trimEnd() ?? '';
    const decoded = decodeStoredEvent(JSON.parse(line));
    expect(E.isRight(decoded)).toBe(true);
    const event = (decoded as E.Right<StoredEvent>).right;
    expect(event.v).toBe(latestVersion(event.type));
    expect(encodeLine(event)).toBe(line);
    const hashes = blocks.find((code) => code.includes('sha256sum')) ?? '';
    const [first, second] = [...hashes.matchAll(/^([0-9a-f]{64}) {2}-$/gm)].map((m) => m[1]);
    expect(event.prev).toBe(first);
    expect(sha256Hex(line)).toBe(second);
    expect(hashes).toContain(`{"seq":2,"hash":"${second}"}`);
  });
});
