import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../src/events/policy.js';
import { PolicySchema } from '../../src/events/policy-schema.js';
import { parsePolicy } from '../../src/projections/parse-policy.js';
import { fencedBlocks, ROOT } from './markdown.js';

/**
 * docs/policies.md documents every option of a policy file, each in a section of its own with an
 * example, and every policy it shows is one `open --policy-file` accepts (its shell examples run in
 * runnable.test.ts). An option added to the schema without its section fails here.
 */
const doc = readFileSync(path.join(ROOT, 'docs/policies.md'), 'utf8');

const sections = [...doc.matchAll(/^### `([A-Za-z]+)`: .+$/gm)].map((m) => m[1] as string);

/** The text of one option's section, up to the next heading. */
const sectionOf = (option: string): string => {
  const start = doc.search(new RegExp(`^### \`${option}\`:`, 'm'));
  const rest = doc.slice(doc.indexOf('\n', start) + 1);
  const end = rest.search(/^#{2,3} /m);
  return end === -1 ? rest : rest.slice(0, end);
};

describe('docs/policies.md', () => {
  it('has a section for every option of a policy file, and none for an option that does not exist', () => {
    const options = Object.keys(PolicySchema.shape);
    expect([...sections].sort()).toEqual([...options].sort());
  });

  it('every section has an example, a policy using that option', () => {
    const missing = sections.filter((option) => !new RegExp(`"${option}"\\s*:`).test(sectionOf(option)));
    expect(missing).toEqual([]);
  });

  it('the severities section names every field of a severity rule', () => {
    const rule = PolicySchema.shape.severities.valueType;
    const text = sectionOf('severities');
    expect(Object.keys(rule.shape).filter((field) => !text.includes(`\`${field}\``))).toEqual([]);
  });

  it('every policy shown as JSON is accepted, as open --policy-file would take it', () => {
    const policies = fencedBlocks(doc, 'json');
    expect(policies.length).toBeGreaterThan(5);
    const refused = policies.flatMap(({ line, code }) => {
      const parsed = parsePolicy(JSON.parse(code));
      return parsed._tag === 'Left' ? [`line ${line}: ${parsed.left.message}`] : [];
    });
    expect(refused).toEqual([]);
  });

  it('the preset table names every preset', () => {
    const table = doc.slice(doc.indexOf('## The presets'), doc.indexOf('## A policy file'));
    expect(PRESET_NAMES.filter((name) => !table.includes(`| \`${name}\``))).toEqual([]);
  });
});
