import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { run } from '../../src/cli/program.js';

export type InProcessResult = Readonly<{
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, when it is exactly one JSON object */
  json: Record<string, unknown> | undefined;
}>;

/** Run the CLI in this process, through `run(argv, io)`, with plain objects for its streams. */
export const runInProcess = async (
  argv: ReadonlyArray<string>,
  options: Readonly<{ stdin?: Uint8Array | string; env?: Readonly<Record<string, string | undefined>> }> = {},
): Promise<InProcessResult> => {
  let stdout = '';
  let stderr = '';
  const input = options.stdin;
  const code = await run(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: (async function* () {
      if (input !== undefined) yield input;
    })(),
    env: { NO_COLOR: '1', CLEARANCE_ACTOR: 'tester', ...options.env },
  });
  let json: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(stdout) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      json = parsed as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
};

/** Every file under `dir` and its bytes: a refusal must leave this unchanged. */
export const snapshot = async (dir: string): Promise<Map<string, string>> => {
  const files = new Map<string, string>();
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else files.set(path.relative(dir, full), (await readFile(full)).toString('base64'));
    }
  };
  await walk(dir);
  return files;
};
