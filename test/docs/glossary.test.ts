import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../src/events/policy.js';
import { linksOf, ROOT } from './markdown.js';

/** docs/glossary.md: the words a newcomer meets, each defined once and linked to where it is explained. */
const glossary = readFileSync(path.join(ROOT, 'docs/glossary.md'), 'utf8');

/** Each entry is a paragraph that starts with its term in bold: `**Term.** What it is. [where](…)` */
const entries = glossary.split(/\n\n+/).flatMap((paragraph) => {
  const m = /^\*\*(.+?)\.\*\* /.exec(paragraph);
  return m === null ? [] : [{ term: m[1] as string, text: paragraph }];
});

const WORDS = [
  'run',
  'round',
  'input',
  'capture',
  'candidate',
  'finding',
  'decision',
  'contribution',
  'panel',
  'reviewer',
  'verification',
  'assessment',
  'ruling',
  'extension',
  'stage',
  'checkpoint',
  'verdict',
  'gate',
  'policy',
  'preset',
  'store',
  'log',
  'head anchor',
  'attestation',
  'reproduction',
  'stall',
];

describe('docs/glossary.md', () => {
  it('defines every word a newcomer meets', () => {
    const terms = entries.map((e) => e.term.toLowerCase());
    expect(WORDS.filter((word) => !terms.includes(word))).toEqual([]);
  });

  it('names every preset a policy can be, as the code lists them', () => {
    const preset = entries.find((e) => e.term === 'Preset')?.text ?? '';
    expect(PRESET_NAMES.filter((name) => !preset.includes(`\`${name}\``))).toEqual([]);
  });

  it('in alphabetical order, each once, each linking to where it is explained', () => {
    const terms = entries.map((e) => e.term);
    expect(terms).toEqual([...new Set(terms)].sort((a, b) => a.localeCompare(b)));
    expect(entries.filter((e) => linksOf(e.text).length === 0).map((e) => e.term)).toEqual([]);
  });
});
