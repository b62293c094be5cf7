import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../property-tests/runs.js';
import { findingId } from '../../src/index.js';
import { SCHEMA_VERSION } from '../../src/store/postgres/tables.js';
import { cli, spawnCli } from '../support/cli.js';
import { tempDir } from '../support/git-repo.js';
import { withDatabase } from '../support/pg-url.js';
import { freshDatabase } from '../support/stores.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const FINDING = {
  file: 'src/service.js',
  line: 2,
  category: 'correctness',
  summary: 'Handle not closed',
  severity: 'major',
  confirmed: true,
  evidence: 'abort mid-stream: the handle stays open',
};

describe('one review, two machines, one PostgreSQL store', () => {
  it('opens and records on one machine, captures, waits for a report published by another, and gates on that one', async () => {
    const url = await freshDatabase();
    // a shared origin and two clones: two CI machines that never share a directory
    const origin = tempDir('clearance-origin-');
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
    const [a, b] = [tempDir('clearance-machine-a-'), tempDir('clearance-machine-b-')];
    for (const dir of [a, b]) {
      git(dir, 'init', '-q', '-b', 'main');
      git(dir, 'config', 'user.email', 't@example.invalid');
      git(dir, 'config', 'user.name', 'tester');
      git(dir, 'remote', 'add', 'origin', origin);
    }
    writeFileSync(path.join(a, 'service.js'), 'const h = acquire();\nreturn h.read();\n');
    git(a, 'add', '-A');
    git(a, 'commit', '-qm', 'first');
    git(a, 'push', '-q', 'origin', 'main');
    const onA = (...args: string[]) => cli([...args, '--store', url, '--json'], { cwd: a });
    const onB = (...args: string[]) => cli([...args, '--store', url, '--json'], { cwd: b });

    const opened = await onA('open', 'pr-1', '--policy', 'default', '--repo', '.');
    expect(opened.code, opened.stdout).toBe(0);
    const inputSha = git(a, 'rev-parse', 'HEAD');
    const finding = { ...FINDING, file: 'service.js' };
    const round1 = {
      runId: 'pr-1',
      round: 1,
      inputSha,
      completed: true,
      candidates: [finding],
      decisions: [],
    };
    const r1 = await cli(['record', 'pr-1', '--report', '-', '--store', url, '--json'], {
      cwd: a,
      input: JSON.stringify(round1),
    });
    expect(r1.code, r1.stdout).toBe(0);

    // the author pushes a fix from machine A; machine B fetches it and captures round 2
    writeFileSync(
      path.join(a, 'service.js'),
      'const h = acquire();\ntry { return h.read(); } finally { h.close(); }\n',
    );
    git(a, 'commit', '-qam', 'close the handle');
    git(a, 'push', '-q', 'origin', 'main');
    git(b, 'fetch', '-q', 'origin');
    git(b, 'checkout', '-q', '-b', 'main', 'origin/main');
    const captured = await onB('capture', 'pr-1', '--repo', '.');
    expect(captured.code, captured.stdout).toBe(0);
    const head = git(b, 'rev-parse', 'HEAD');

    // machine B waits for the round-2 report; a reviewer on machine A publishes it into the store
    const waiting = spawnCli(
      ['record', 'pr-1', '--wait', url, '--timeout-ms', '30000', '--store', url, '--json'],
      {
        cwd: b,
      },
    );
    const round2 = {
      runId: 'pr-1',
      round: 2,
      inputSha: head,
      completed: true,
      candidates: [],
      decisions: [
        { id: findingId(finding).slice(0, 12), status: 'fixed', evidence: 'closed in a finally block' },
      ],
    };
    const published = await cli(['publish', url, '--report', '-', '--json'], {
      cwd: a,
      input: JSON.stringify(round2),
    });
    expect(published.code, published.stdout).toBe(0);
    expect(published.stdout).not.toContain('@'); // the store URL is printed without its user
    const collected = await waiting.result;
    expect(collected.code, collected.stdout + collected.stderr).toBe(0);
    expect((await onB('status', 'pr-1')).json.status).toBe('converged');
    const gate = await onB('gate', 'pr-1', '--repo', '.');
    expect(gate.code, gate.stdout).toBe(0);

    // the same lines as a file store would hold: export, import into a directory, verify there
    const exported = await cli(['export', 'pr-1', '--store', url]);
    const dir = tempDir('clearance-moved-');
    const imported = await cli(['import', 'pr-1', '-', '--dir', dir], { input: exported.stdout });
    expect(imported.code, imported.stderr).toBe(0);
    expect((await cli(['verify', 'pr-1', '--dir', dir])).code).toBe(0);
    expect((await cli(['export', 'pr-1', '--dir', dir])).stdout).toBe(exported.stdout);
  });
});

/** Racing processes and the captures each makes: 8 × 5 at full scale (CI), 3 × 2 in a local run. */
const APPENDERS = scaled(8, 3);
const APPENDS = scaled(5, 2);

describe('processes appending to one run in PostgreSQL', () => {
  it(`${APPENDERS} processes appending ${APPENDS} captures each lose, duplicate and interleave nothing`, async () => {
    const url = await freshDatabase();
    expect(
      (await cli(['open', 'r', '--policy', 'default', '--input-sha', 'a'.repeat(40), '--store', url])).code,
    ).toBe(0);
    await Promise.all(
      Array.from({ length: APPENDERS }, (_, w) =>
        (async () => {
          for (let n = 0; n < APPENDS; n += 1) {
            const done = await spawnCli([
              'capture',
              'r',
              '--input-sha',
              `${w}-${n}`.padEnd(40, 'f'),
              '--store',
              url,
            ]).result;
            expect(done.code, done.stderr).toBe(0);
          }
        })(),
      ),
    );
    const verified = await cli(['verify', 'r', '--store', url, '--json']);
    expect(verified.code).toBe(0);
    const log = (await cli(['export', 'r', '--store', url])).stdout.trim().split('\n');
    expect(log).toHaveLength(2 + APPENDERS * APPENDS);
    expect(new Set(log.slice(2).map((l) => JSON.parse(l).data.inputSha)).size).toBe(APPENDERS * APPENDS);
    // real processes by the dozen, on a 2-core box shared with other work: room to finish, not a timing assertion
  }, 180_000);

  it('4 processes racing to record round 2: exactly one wins, the others are refused, nothing is written twice', async () => {
    const url = await freshDatabase();
    const input = (n: number) => String(n).repeat(40);
    expect(
      (await cli(['open', 'r', '--policy', 'default', '--input-sha', input(1), '--store', url])).code,
    ).toBe(0);
    const round1 = {
      runId: 'r',
      round: 1,
      inputSha: input(1),
      completed: true,
      candidates: [],
      decisions: [],
      notExamined: [],
    };
    expect(
      (
        await cli(['record', 'r', '--report', '-', '--store', url], {
          input: JSON.stringify({ ...round1, candidates: [FINDING] }),
        })
      ).code,
    ).toBe(0);
    expect(
      (await cli(['capture', 'r', '--input-sha', input(2), '--touched', 'src/service.js', '--store', url]))
        .code,
    ).toBe(0);
    const decisions = (status: string) => [
      { id: findingId(FINDING), status, evidence: `racer says ${status}` },
    ];
    const racers = ['fixed', 'open', 'withdrawn', 'fixed'].map(
      (status, i) =>
        spawnCli(['record', 'r', '--report', '-', '--store', url, '--json'], {
          input: JSON.stringify({
            ...round1,
            round: 2,
            inputSha: input(2),
            decisions: decisions(status),
            reviewer: `racer ${i}`,
          }),
        }).result,
    );
    const outcomes = await Promise.all(racers);
    expect(outcomes.filter((o) => o.code === 0)).toHaveLength(1);
    const log = (await cli(['export', 'r', '--store', url])).stdout.trim().split('\n');
    expect(log.filter((l) => JSON.parse(l).type === 'round.recorded')).toHaveLength(2);
  });
});

describe('the PostgreSQL schema is created and upgraded only by store init', () => {
  it('refuses a database without the schema (78, nothing created), creates it on init, and refuses a newer one', async () => {
    const prepared = await freshDatabase();
    // another database on the same server, never initialised
    const admin = new pg.Client({ connectionString: prepared });
    await admin.connect();
    const bare = `clearance_bare_${process.pid}`;
    await admin.query(`CREATE DATABASE ${bare}`);
    await admin.end();
    const url = withDatabase(prepared, bare);
    const refused = await cli(['status', '--store', url, '--json']);
    expect(refused.code).toBe(78);
    expect(JSON.stringify(refused.json)).toContain('store init');
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    try {
      expect((await probe.query("SELECT to_regnamespace('clearance') AS s")).rows[0].s).toBeNull();
      const init = await cli(['store', 'init', '--store', url, '--json']);
      expect(init.code, init.stdout).toBe(0);
      expect(init.json).toMatchObject({ kind: 'postgres', from: null, to: SCHEMA_VERSION });
      expect((await cli(['store', 'init', '--store', url, '--json'])).json).toMatchObject({
        from: SCHEMA_VERSION,
        to: SCHEMA_VERSION,
      });
      expect((await cli(['status', '--store', url, '--json'])).code).toBe(0);
      await probe.query("UPDATE clearance.meta SET value = '99' WHERE key = 'schema_version'");
      const newer = await cli(['status', '--store', url, '--json']);
      expect(newer.code).toBe(78);
      expect(JSON.stringify(newer.json)).toContain('newer');
    } finally {
      await probe.end();
    }
  });

  it('says the server cannot be reached, without printing the password (69)', async () => {
    const result = await cli(['status', '--store', 'postgres://someone:s3cret@127.0.0.1:1/none', '--json']);
    expect(result.code).toBe(69);
    expect(result.stdout + result.stderr).not.toContain('s3cret');
  });
});
