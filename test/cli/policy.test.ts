import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { fileStore, openRun } from '../../src/store/index.js';
import { BAD_POLICIES, USABLE_POLICY } from '../support/bad-policies.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const errorOf = (r: { json: Record<string, unknown> }) =>
  r.json.error as { code: string; message: string; details: Record<string, unknown> };

/** What the store holds: no run may appear for a refused policy. */
const runsIn = async (dir: string) => readdir(path.join(dir, 'runs')).catch(() => []);

describe('a bad policy: one code and one exit status, whichever field, through every door', () => {
  it('invalid-policy is a rule refusal: exit 1', () => {
    expect(exitCodeFor('invalid-policy')).toBe(EXIT.refused);
  });

  it('open --policy-file accepts a usable policy', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'policy.json');
    await writeFile(file, JSON.stringify(USABLE_POLICY));
    const opened = await cli(['--dir', dir, 'open', 'r', '--policy-file', file, '--json']);
    expect([opened.code, opened.json.maxRounds]).toEqual([0, 3]);
  });

  it.each(BAD_POLICIES)(
    'open --policy-file FILE: %s exits 1 invalid-policy, naming %s, creating no run',
    async (_what, field, policy) => {
      const dir = await tempDir();
      const file = path.join(dir, 'policy.json');
      await writeFile(file, JSON.stringify(policy));
      const refused = await cli(['--dir', dir, 'open', 'r', '--policy-file', file, '--json']);
      expect([refused.code, errorOf(refused).code]).toEqual([1, 'invalid-policy']);
      expect(errorOf(refused).message).toContain(field);
      expect(errorOf(refused).message).toContain(file);
      expect(await runsIn(dir)).toEqual([]);
    },
  );

  it.each(BAD_POLICIES)(
    'open --policy-file - (JSON on standard input): %s exits 1 invalid-policy',
    async (_what, field, policy) => {
      const dir = await tempDir();
      const refused = await cli(['--dir', dir, 'open', 'r', '--policy-file', '-', '--json'], {
        input: JSON.stringify(policy),
      });
      expect([refused.code, errorOf(refused).code]).toEqual([1, 'invalid-policy']);
      expect(errorOf(refused).message).toContain(field);
      expect(await runsIn(dir)).toEqual([]);
    },
  );

  it.each([
    ['not JSON', '{"name":'],
    ['a duplicated key', '{"name":"a","name":"b","maxRounds":2,"severities":{"major":{"blocks":true}}}'],
    ['not an object', '[1, 2]'],
  ])('a policy file that is %s exits 1 invalid-policy too', async (_what, text) => {
    const dir = await tempDir();
    const file = path.join(dir, 'policy.json');
    await writeFile(file, text);
    const refused = await cli(['--dir', dir, 'open', 'r', '--policy-file', file, '--json']);
    expect([refused.code, errorOf(refused).code]).toEqual([1, 'invalid-policy']);
    expect(await runsIn(dir)).toEqual([]);
  });

  it('the library: a store refuses to open a run whose policy breaks a value rule, creating nothing', async () => {
    const dir = await tempDir();
    const refused = openRun(
      fileStore(dir),
      {
        runId: 'r',
        policy: {
          ...USABLE_POLICY,
          maxRounds: 0,
          notExaminedRequired: false,
          untouchedDecisions: [],
          severities: {},
        },
        subject: {},
        consent: { by: 't' },
      } as never,
      { by: 't' },
    );
    await expect(refused).rejects.toMatchObject({ code: 'invalid-policy' });
    expect(await runsIn(dir)).toEqual([]);
  });

  it('presets open; an unknown preset name is a usage error (a flag, not a policy)', async () => {
    const dir = await tempDir();
    for (const name of ['default', 'issueflow', 'standard']) {
      expect((await cli(['--dir', dir, 'open', name, '--policy', name])).code).toBe(0);
    }
    const unknown = await cli(['--dir', dir, 'open', 'x', '--policy', 'strict', '--json']);
    expect([unknown.code, errorOf(unknown).code]).toEqual([2, 'usage']);
  });
});
