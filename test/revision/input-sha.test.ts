import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ClearanceError } from '../../src/errors.js';
import { inputShaOf } from '../../src/revision/index.js';

const COMMIT = 'c'.repeat(40);
const TREE = 't'.repeat(40);
const ARTIFACT = 'a'.repeat(64);
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('inputShaOf', () => {
  it('is the commit when only code is bound, even with its tree known', () => {
    expect(inputShaOf({ commit: COMMIT })).toBe(COMMIT);
    expect(inputShaOf({ commit: COMMIT, tree: TREE })).toBe(COMMIT);
  });

  it('is the working tree id when the tree was dirty', () => {
    expect(inputShaOf({ commit: COMMIT, tree: TREE, dirty: true })).toBe(TREE);
  });

  it('is the artifact hash when only an artifact is bound', () => {
    expect(inputShaOf({ artifactSha: ARTIFACT })).toBe(ARTIFACT);
  });

  it('is the SHA-256 of commitOrTree:artifactSha when both are bound', () => {
    expect(inputShaOf({ commit: COMMIT, tree: TREE, artifactSha: ARTIFACT })).toBe(
      sha256(`${COMMIT}:${ARTIFACT}`),
    );
    expect(inputShaOf({ commit: COMMIT, tree: TREE, dirty: true, artifactSha: ARTIFACT })).toBe(
      sha256(`${TREE}:${ARTIFACT}`),
    );
  });

  it('refuses an input with nothing bound', () => {
    expect(() => inputShaOf({})).toThrow(ClearanceError);
    expect(() => inputShaOf({ commit: COMMIT, dirty: true })).toThrow(/working tree id/);
  });
});
