import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { deferringRequire } from '../../src/cli/lazy-builtins.js';

const nodeRequire = createRequire(import.meta.url);

const recording = () => {
  const asked: string[] = [];
  return {
    asked,
    require: deferringRequire((spec) => {
      asked.push(spec);
      return nodeRequire(spec);
    }),
  };
};

describe('Node modules a start-up may not need', () => {
  it('are loaded on the first look at an export, and then are the real thing', () => {
    const { asked, require } = recording();
    const childProcess = require('node:child_process') as typeof import('node:child_process');
    expect(asked).toEqual([]);
    expect(require('node:child_process')).toBe(childProcess);
    expect(childProcess.execFile).toBe(nodeRequire('node:child_process').execFile);
    expect(asked).toEqual(['node:child_process']);
    expect(Object.keys(childProcess)).toEqual(Object.keys(nodeRequire('node:child_process')));
    expect('spawn' in childProcess).toBe(true);
    expect(asked).toEqual(['node:child_process']);
  });

  it('survive being copied as esbuild copies a namespace, fixed properties (crypto.constants) included', () => {
    const { require } = recording();
    const crypto = require('node:crypto') as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const key of Object.getOwnPropertyNames(crypto)) {
      const descriptor = Object.getOwnPropertyDescriptor(crypto, key);
      Object.defineProperty(copy, key, {
        get: () => crypto[key],
        enumerable: descriptor?.enumerable ?? false,
      });
    }
    expect(copy.constants).toBe(nodeRequire('node:crypto').constants);
    expect(typeof (copy.randomBytes as (n: number) => Buffer)(4).length).toBe('number');
  });

  it('refuse to be written to, and leave every other module to Node', () => {
    const { asked, require } = recording();
    // the bare name too, as CommonJS dependencies write it
    const bare = 'timers/promises';
    const timers = require(bare) as Record<string, unknown>;
    expect(() => {
      timers.setTimeout = () => undefined;
    }).toThrow(TypeError);
    expect(require('node:path')).toBe(nodeRequire('node:path'));
    expect(require('node:events')).toBe(nodeRequire('node:events'));
    expect(asked).toEqual(['node:path', 'node:events']);
  });
});
