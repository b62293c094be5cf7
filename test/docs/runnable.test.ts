import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, markdownFiles, ROOT, RUNNABLE_MARKER, runnableBlocks } from './markdown.js';
import { runBlock } from './run-block.js';

/**
 * Every shell example a document marks runnable (`<!-- runnable -->` on the line before a ```sh
 * fence) runs as written and exits 0: in bash, in a fresh empty directory, against the built CLI.
 * The README's first screen is one of them: a newcomer follows it into a working loop.
 */

const examples = markdownFiles().flatMap((file) =>
  runnableBlocks(readFileSync(path.join(ROOT, file), 'utf8')).map((block) => ({ file, ...block })),
);

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('the runnable examples of the documents', () => {
  // side by side: each waits on its processes most of the time
  it.concurrent.each(examples)('$file:$line runs and exits 0', { timeout: 90_000 }, async ({ code }) => {
    const ran = await runBlock(code);
    // on a failure the diff shows what the example printed last
    expect({
      code: ran.code,
      stdout: ran.stdout.slice(-2000),
      stderr: ran.stderr.slice(-2000),
    }).toMatchObject({
      code: 0,
    });
  });

  it("the README's first screen is a runnable loop: open, record, capture, record, status, explain, gate", () => {
    const [first] = runnableBlocks(readme);
    expect(first).toBeDefined();
    expect(first?.line).toBeLessThan(60);
    const commands = (first?.code ?? '')
      .split('\n')
      .map((line) => /^clearance (\S+)/.exec(line)?.[1])
      .filter((command) => command !== undefined);
    expect(commands).toEqual(['open', 'record', 'capture', 'record', 'status', 'explain', 'gate']);
    // from an empty directory: the example makes its own repository and writes its own reports
    expect(first?.code).toMatch(/^git init /m);
  });

  it("the README's way to put clearance on the PATH, typed in the clone, gives the built CLI anywhere", async () => {
    const alias = /`(alias clearance="[^`]*")`/.exec(readme)?.[1];
    expect(alias).toBeDefined();
    // as a person types it: in the clone, then from another directory; the runner's own clearance
    // is taken off the PATH first, so only the alias can answer
    const lines = [
      'shopt -s expand_aliases',
      'export PATH="$(printf %s "$PATH" | cut -d: -f2-)"',
      'test -z "$(command -v clearance)"',
      `cd ${JSON.stringify(ROOT)}`,
      alias,
      'cd "$OLDPWD"',
      'clearance --version',
    ];
    const ran = await runBlock(lines.join('\n'));
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
    expect(ran.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("the README's first commands are npm install, npx clearance demo, npm test", () => {
    const [first] = fencedBlocks(readme, 'sh');
    const commands = (first?.code ?? '').split('\n').map((line) => line.replace(/\s+#.*$/, ''));
    expect(commands.slice(0, 3)).toEqual(['npm install', 'npx clearance demo', 'npm test']);
  });

  it('finds examples in more than one document', () => {
    expect(new Set(examples.map((e) => e.file)).size).toBeGreaterThan(1);
  });
});

describe('the runner fails an example that fails', () => {
  it('a failing last line, a failing line before a passing one, a failing pipe', async () => {
    expect((await runBlock('true\nfalse')).code).not.toBe(0);
    expect((await runBlock('false\ntrue')).code).not.toBe(0);
    expect((await runBlock('false | true')).code).not.toBe(0);
    expect((await runBlock('true')).code).toBe(0);
  });

  it('runs in an empty directory, with the built clearance on the PATH and no store of the test run', async () => {
    const ran = await runBlock(
      'test -z "$(ls -A)"\ntest -z "$(printenv CLEARANCE_DIR)"\nclearance --version',
    );
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
    expect(ran.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a clearance refusal fails the example', async () => {
    expect((await runBlock('clearance status no-such-run')).code).not.toBe(0);
  });
});

describe('the runnable marker', () => {
  it('marks the sh block after it, across a blank line, and nothing else', () => {
    const text = `${RUNNABLE_MARKER}\n\n\`\`\`sh\necho one\n\`\`\`\n\n\`\`\`sh\necho two\n\`\`\`\n`;
    expect(runnableBlocks(text)).toEqual([{ line: 3, code: 'echo one\n' }]);
  });

  it('a marker before anything but a sh block is an error, never a silent skip', () => {
    expect(() => runnableBlocks(`${RUNNABLE_MARKER}\n\n\`\`\`js\n1\n\`\`\`\n`)).toThrow(/must be followed/);
    expect(() => runnableBlocks(`${RUNNABLE_MARKER}\n\nsome text\n`)).toThrow(/must be followed/);
  });
});
