import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/tmp.js';
import { fencedBlocks, ROOT } from './markdown.js';

/**
 * Every TypeScript example of the README, and of docs/embedding.md where the README's examples
 * moved, is typechecked under `strict` against the published types (`clearance`'s lib/*.d.ts and
 * `@clearance/fold`'s, as they resolve for a user), not only run with its types stripped
 * (readme.test.ts runs them).
 */
const root = ROOT;
const DOCUMENTS = ['README.md', 'docs/embedding.md'];

const tsExamples = (): string[] =>
  DOCUMENTS.flatMap((file) =>
    fencedBlocks(readFileSync(path.join(root, file), 'utf8'), 'ts').map((block) => block.code),
  );

const tsconfig = {
  compilerOptions: {
    strict: true,
    noUnusedLocals: true,
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
    // `@clearance/fold` and its entries resolve as a user's do: through node_modules, to the
    // package's published types (packages/fold/lib)
    paths: { clearance: [path.join(root, 'lib/index.d.ts')] },
  },
  include: ['*.ts'],
};

describe("the documents' TypeScript examples typecheck under strict", () => {
  it('tsc --strict reports nothing', async () => {
    const examples = tsExamples();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    const dir = await tempDir('clearance-readme-types-');
    await mkdir(path.join(dir, 'examples'));
    const at = path.join(dir, 'examples');
    await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await writeFile(path.join(at, 'package.json'), '{ "type": "module" }\n');
    await writeFile(path.join(at, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    await Promise.all(examples.map((code, i) => writeFile(path.join(at, `example-${i + 1}.ts`), code)));
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', at, '--pretty', 'false']).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});
