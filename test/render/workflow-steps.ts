/**
 * Reads the one YAML workflow in a Markdown page: the job's `env`, and each step's `name`, `uses`,
 * `if`, `run` and `with`. Only the shapes docs/github-actions.md uses are understood (block
 * mappings, `run: |` blocks, plain scalars); anything else fails loudly rather than being guessed.
 */

export type Step = Readonly<{
  name: string | null;
  uses: string | null;
  if: string | null;
  run: string | null;
  with: Readonly<Record<string, string>>;
}>;

export type Workflow = Readonly<{ env: Readonly<Record<string, string>>; steps: ReadonlyArray<Step> }>;

const indentOf = (line: string) => line.length - line.trimStart().length;

const keyValue = (text: string): [string, string] => {
  const m = /^([A-Za-z_][\w-]*):\s?(.*)$/.exec(text);
  if (m === null) throw new Error(`not a key: value line: ${JSON.stringify(text)}`);
  return [m[1] as string, m[2] as string];
};

type MutableStep = { -readonly [K in keyof Step]: Step[K] } & { with: Record<string, string> };

/** One step from its lines, each with the step's own indentation removed. */
const stepOf = (fields: ReadonlyArray<string>): Step => {
  const step: MutableStep = { name: null, uses: null, if: null, run: null, with: {} };
  let f = 0;
  const nested = (): string[] => {
    const out: string[] = [];
    while ((fields[f + 1] ?? '').startsWith('  ')) {
      f += 1;
      out.push(fields[f] as string);
    }
    return out;
  };
  for (; f < fields.length; f += 1) {
    const text = fields[f] as string;
    if (text.startsWith(' ')) throw new Error(`unexpected nesting: ${JSON.stringify(text)}`);
    const [k, v] = keyValue(text);
    if (k === 'run' && v === '|')
      step.run = `${nested()
        .map((l) => l.slice(2))
        .join('\n')}\n`;
    else if (k === 'with') {
      for (const l of nested()) {
        const [wk, wv] = keyValue(l.trim());
        step.with[wk] = wv;
      }
    } else if (k === 'name' || k === 'uses' || k === 'if' || k === 'run') step[k] = v;
    else throw new Error(`unknown step key ${k}`);
  }
  return step;
};

export const workflowOf = (markdown: string): Workflow => {
  const blocks = [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)];
  if (blocks.length !== 1) throw new Error(`expected one yaml block, found ${blocks.length}`);
  const lines = (blocks[0]?.[1] ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const env: Record<string, string> = {};
  const steps: Step[] = [];
  let i = 0;
  const jobEnv = lines.indexOf('    env:');
  if (jobEnv === -1) throw new Error('the job has no env');
  for (i = jobEnv + 1; indentOf(lines[i] ?? '') === 6; i += 1) {
    const [k, v] = keyValue((lines[i] as string).trim());
    env[k] = v;
  }
  i = lines.indexOf('    steps:') + 1;
  if (i === 0) throw new Error('the job has no steps');
  while (i < lines.length) {
    const line = lines[i] as string;
    if (!line.startsWith('      - ')) throw new Error(`expected a step at ${JSON.stringify(line)}`);
    const fields = [line.slice(8)];
    i += 1;
    while (i < lines.length && indentOf(lines[i] as string) >= 8) {
      fields.push((lines[i] as string).slice(8));
      i += 1;
    }
    steps.push(stepOf(fields));
  }
  return { env, steps };
};

/** Fill `${{ … }}` from `values`; an expression the test does not know is an error, never blank. */
export const expand = (text: string, values: Readonly<Record<string, string>>): string =>
  text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const value = values[expr];
    if (value === undefined) throw new Error(`no value for the expression \${{ ${expr} }}`);
    return value;
  });
