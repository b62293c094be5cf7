import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * Folders whose files repeat one name for one subject at each layer (ARCHITECTURE.md, "Names"):
 * a command through the layers it passes (cli/commands/record.ts, operations/record.ts), the two
 * stores (store/read.ts, store/postgres/read.ts), a rule and the mutations that test it
 * (projections/rules/binding.ts, testing/mutations/binding.ts).
 */
const FAMILIES: ReadonlyArray<ReadonlyArray<string>> = [
  ['cli/commands', 'cli/demo', 'operations', 'operations/schemas', 'projections/views', 'render'],
  ['store', 'store/postgres'],
  ['projections/rules', 'testing/mutations'],
];

/** Names shared across families, each for one subject: the exact files, and what they share. */
const SHARED: Readonly<Record<string, readonly [subject: string, files: ReadonlyArray<string>]>> = {
  'capture.ts': [
    'capturing an input: the command, git, the rule',
    [
      'cli/commands/capture.ts',
      'operations/capture.ts',
      'projections/rules/capture.ts',
      'revision/capture.ts',
    ],
  ],
  'checks.ts': [
    'CI checks: the command, the demo, the rule and its mutations',
    [
      'cli/commands/checks.ts',
      'cli/demo/checks.ts',
      'operations/checks.ts',
      'projections/rules/checks.ts',
      'testing/mutations/checks.ts',
    ],
  ],
  'citations.ts': [
    'citations: resolved in git, checked by the rule',
    ['projections/rules/citations.ts', 'revision/citations.ts'],
  ],
  'context.ts': ['the context a command runs in, at each door', ['cli/context.ts', 'operations/context.ts']],
  'contributions.ts': [
    "a round's contributions: the operation and the mutations",
    ['operations/contributions.ts', 'testing/mutations/contributions.ts'],
  ],
  'disputes.ts': [
    "the author's disputes: the rule, its mutations, the view",
    ['projections/rules/disputes.ts', 'projections/views/disputes.ts', 'testing/mutations/disputes.ts'],
  ],
  'ed25519.ts': [
    'Ed25519 verification: the verifier the decider is handed, and the entry that offers one',
    ['ed25519.ts', 'events/ed25519.ts'],
  ],
  'next-step.ts': [
    'the step after a refusal: as data (the fold), and as a tool and its arguments (the MCP door)',
    ['events/next-step.ts', 'mcp/next-step.ts'],
  ],
  'fold.ts': [
    'the fold: the published @clearance/fold entry and the fold itself',
    ['fold.ts', 'projections/fold.ts'],
  ],
  'lifecycle.ts': [
    "a run's lifecycle: the demo, the rule and its mutations",
    ['cli/demo/lifecycle.ts', 'projections/rules/lifecycle.ts', 'testing/mutations/lifecycle.ts'],
  ],
  'line-moves.ts': [
    "a finding's line following its code: computed from git, checked and applied by the rule, its mutations",
    ['projections/rules/line-moves.ts', 'revision/line-moves.ts', 'testing/mutations/line-moves.ts'],
  ],
  'publish.ts': [
    'publishing a report: the command and the protocol',
    ['cli/commands/publish.ts', 'handoff/publish.ts'],
  ],
  'reproductions.ts': [
    're-run reproductions: the command, the rule, its mutations, the view',
    [
      'cli/commands/reproductions.ts',
      'projections/rules/reproductions.ts',
      'projections/views/reproductions.ts',
      'testing/mutations/reproductions.ts',
    ],
  ],
  'rulings.ts': [
    "a person's rulings: the operation and the rule",
    ['operations/rulings.ts', 'projections/rules/rulings.ts'],
  ],
  'stall.ts': [
    'a stall: the rule and the view',
    ['projections/rules/stall.ts', 'projections/views/stall.ts'],
  ],
  'status.ts': [
    "a run's status: the command, the rule of the declared verdict, the view",
    [
      'cli/commands/status.ts',
      'operations/status.ts',
      'projections/rules/status.ts',
      'projections/views/status.ts',
    ],
  ],
  'store.ts': [
    'the store: the command that administers it, its interface',
    ['cli/commands/store.ts', 'store/store.ts'],
  ],
  'transfer.ts': [
    'export and import: the command and the store',
    ['cli/commands/transfer.ts', 'operations/transfer.ts', 'store/transfer.ts'],
  ],
  'wait.ts': [
    'waiting for a report: the command and the protocol',
    ['cli/commands/wait.ts', 'handoff/wait.ts'],
  ],
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path.relative(SRC, full).split(path.sep).join('/')]
      : [];
  });

const folderOf = (file: string): string => path.posix.dirname(file);

/** Every file name held by two files or more that neither one family nor SHARED explains. */
const unexplainedPairs = (files: ReadonlyArray<string>): string[] => {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = path.posix.basename(file);
    if (name === 'index.ts') continue;
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return [...byName.entries()].flatMap(([name, held]) => {
    if (held.length < 2) return [];
    if (FAMILIES.some((family) => held.every((file) => family.includes(folderOf(file))))) return [];
    const shared = SHARED[name];
    if (shared !== undefined && [...held].sort().join(' ') === [...shared[1]].sort().join(' ')) return [];
    return [`${name}: ${[...held].sort().join(', ')}`];
  });
};

const files = sourceFiles(SRC);

describe('file names under src/', () => {
  it('gives two files one name only for one subject: a family of layers, or a pair listed with what it shares', () => {
    expect(unexplainedPairs(files)).toEqual([]);
  });

  it('keeps the list of shared names true: each still names exactly the files it lists', () => {
    const stale = Object.entries(SHARED).flatMap(([name, [, listed]]) => {
      const held = files.filter((file) => path.posix.basename(file) === name).sort();
      return held.join(' ') === [...listed].sort().join(' ') ? [] : [`${name}: lists ${listed.join(', ')}`];
    });
    expect(stale).toEqual([]);
  });

  it('fails on a new pair, and on a listed name turning up in a new place', () => {
    expect(unexplainedPairs(['projections/views/budget.ts', 'handoff/budget.ts'])).toEqual([
      'budget.ts: handoff/budget.ts, projections/views/budget.ts',
    ]);
    expect(unexplainedPairs(['cli/commands/wait.ts', 'handoff/wait.ts', 'store/wait.ts'])).toEqual([
      'wait.ts: cli/commands/wait.ts, handoff/wait.ts, store/wait.ts',
    ]);
    // a command's name through its layers, the two stores, and index.ts stay allowed
    expect(
      unexplainedPairs([
        'cli/commands/record.ts',
        'operations/record.ts',
        'store/read.ts',
        'store/postgres/read.ts',
        'index.ts',
        'store/index.ts',
      ]),
    ).toEqual([]);
  });
});
