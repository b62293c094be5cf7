import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RENDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/render');

describe('src/render is a pure floor', () => {
  it('imports only events, projections, the untrusted-text module and itself: no I/O, nothing from store, driver or cli', () => {
    const files = readdirSync(RENDER).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(path.join(RENDER, file), 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1] as string);
      for (const target of imports)
        expect(target, `${file} imports ${target}`).toMatch(
          /^(\.\/|\.\.\/events\/|\.\.\/projections\/|\.\.\/text\/untrusted\.js$)/,
        );
    }
  });
});
