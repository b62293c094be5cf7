import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** The README's TypeScript examples, run as they are written (importing the sources instead of the package). */
const here = path.dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(path.join(here, '../../README.md'), 'utf8');
const written: string[] = [];

const exampleAfter = (heading: string): string => {
  const section = readme.slice(readme.indexOf(heading));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined) throw new Error(`no ts example after ${heading}`);
  return match[1]
    .replace("from 'clearance/fold'", `from '${path.join(here, '../../src/fold.js')}'`)
    .replace("from 'clearance/testing'", `from '${path.join(here, '../../src/testing.js')}'`);
};

const run = async (name: string, code: string) => {
  const file = path.join(here, `.${name}.example.ts`);
  writeFileSync(file, code);
  written.push(file);
  await import(file);
};

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe('the README examples run as written', () => {
  it('embedding the fold', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await run('embedding', exampleAfter('## Embedding the fold'));
    expect(error).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('open');
    log.mockRestore();
    error.mockRestore();
  });

  it('property testing with clearance/testing', async () => {
    await run('testing', exampleAfter('## Property testing with `clearance/testing`'));
  });
});
