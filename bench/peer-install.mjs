// Emmett's SQLite and PostgreSQL stores, installed for the peer benchmark on first use into a
// git-ignored cache directory (bench/.cache/peers), never by `npm install` of clearance: the
// SQLite store needs sqlite3, a native module built here with node-gyp from the headers of the
// Node that runs the bench (no prebuilt binary is downloaded).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PEER_CACHE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '.cache', 'peers');

/**
 * The versions measured. emmett-sqlite 0.42.4 names emmett 0.42.4 as its peer, which was never
 * published (0.42.0 is the latest emmett), so npm cannot resolve the peers itself: they are
 * installed with --legacy-peer-deps and named here, each at the version its dependents ask for
 * (sqlite3 for the SQLite store; pongo, dumbo, pg and ansis for the PostgreSQL store; uuid and
 * async-retry for both).
 */
export const PEER_PACKAGES = {
  '@event-driven-io/emmett': '0.42.0',
  '@event-driven-io/emmett-sqlite': '0.42.4',
  '@event-driven-io/emmett-postgresql': '0.42.0',
  '@event-driven-io/pongo': '0.16.11',
  '@event-driven-io/dumbo': '0.12.7',
  sqlite3: '5.1.7',
  pg: '8.23.1',
  'pg-connection-string': '2.14.1',
  uuid: '10.0.0',
  'async-retry': '1.3.3',
  ansis: '3.9.0',
};

/** Where node-gyp finds this Node's headers without downloading them (`<prefix>/include/node`). */
const nodeDir = () => {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return existsSync(path.join(prefix, 'include', 'node', 'node_version.h')) ? prefix : null;
};

const installed = () =>
  Object.keys(PEER_PACKAGES).every((name) =>
    existsSync(path.join(PEER_CACHE, 'node_modules', ...name.split('/'), 'package.json')),
  ) && existsSync(path.join(PEER_CACHE, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'));

/** Install the peers once (a few minutes: sqlite3 compiles), then import them from the cache. */
export const loadPeers = async () => {
  if (!installed()) {
    mkdirSync(PEER_CACHE, { recursive: true });
    writeFileSync(
      path.join(PEER_CACHE, 'package.json'),
      `${JSON.stringify({ name: 'clearance-bench-peers', private: true, dependencies: PEER_PACKAGES }, null, 2)}\n`,
    );
    const dir = nodeDir();
    console.log(`peers     installing ${Object.keys(PEER_PACKAGES).join(', ')} into ${PEER_CACHE} (once)…`);
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        PEER_CACHE,
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--legacy-peer-deps',
        ...(dir === null ? [] : [`--nodedir=${dir}`]),
      ],
      // sqlite3 then skips looking for a prebuilt binary and compiles
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, npm_config_build_from_source: 'true' },
      },
    );
    if (!installed()) throw new Error(`bench: the peers did not install into ${PEER_CACHE}`);
  }
  const load = (name) =>
    import(pathToFileURL(path.join(PEER_CACHE, 'node_modules', ...name.split('/'), 'dist', 'index.js')).href);
  return {
    sqlite: await load('@event-driven-io/emmett-sqlite'),
    postgresql: await load('@event-driven-io/emmett-postgresql'),
    versions: PEER_PACKAGES,
  };
};
