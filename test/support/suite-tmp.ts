import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * vitest global setup: one temporary directory for the whole run, handed to every worker and every
 * process they start as TMPDIR, and removed when the run ends. Whatever a test leaves behind on
 * purpose (the demo keeps its store for the reader) or by accident goes with it, so runs never
 * pile up in /tmp. Sticky and open to every user, as /tmp is: the tests that run the CLI as another
 * user copy it here and let it make its own scratch directories.
 *
 * Each project (vitest.config.ts has two) runs this setup in the one main process; the first makes
 * the directory, and the last teardown removes it.
 */
type Shared = { dir: string | null; before: string | undefined; users: number };
const holder = globalThis as { clearanceSuiteTmp?: Shared };
holder.clearanceSuiteTmp ??= { dir: null, before: undefined, users: 0 };
const shared: Shared = holder.clearanceSuiteTmp;

export const setup = (): void => {
  if (shared.dir === null) {
    shared.before = process.env.TMPDIR;
    shared.dir = mkdtempSync(path.join(os.tmpdir(), 'clearance-suite-'));
    chmodSync(shared.dir, 0o1777);
    process.env.TMPDIR = shared.dir;
  }
  shared.users += 1;
};

export const teardown = (): void => {
  shared.users -= 1;
  if (shared.users > 0 || shared.dir === null) return;
  const dir = shared.dir;
  shared.dir = null;
  if (shared.before === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = shared.before;
  rmSync(dir, { recursive: true, force: true });
};
