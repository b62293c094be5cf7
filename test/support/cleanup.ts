import { afterAll, afterEach } from 'vitest';
import { removeTempDirs } from './git-repo.js';
import { closeAdmin } from './pg-admin.js';
import { removeTestDirs } from './tmp.js';

/**
 * vitest setup file, run before every test file: the temporary directories the helpers make are
 * removed after each test (tmp.ts) and after each file (git-repo.ts). Registered here rather than
 * in the helpers because test files share one module graph per worker: a hook a helper registered
 * when first imported would belong to the first file that imported it, and every later file's
 * directories would be left behind (about 900 a run, before this file). The connection the
 * PostgreSQL helpers keep for making test databases is closed the same way.
 */
afterEach(removeTestDirs);
afterAll(removeTempDirs);
afterAll(closeAdmin);
