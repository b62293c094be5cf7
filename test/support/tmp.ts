import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/** A fresh temporary directory, removed after the test (test/support/cleanup.ts). */
export const tempDir = async (prefix = 'clearance-test-'): Promise<string> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** Remove every directory `tempDir` made; run after each test by test/support/cleanup.ts. */
export const removeTestDirs = async (): Promise<void> => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
};
