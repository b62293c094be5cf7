import { parse } from 'yaml';

/**
 * Reads the one YAML workflow in a Markdown page (the `yaml` package parses it): its one job's
 * `env`, and each step's `name`, `id`, `uses`, `if`, `run` and `with`. A step key the runner here
 * has no stand-in for fails loudly rather than being ignored.
 */

export type Step = Readonly<{
  name: string | null;
  id: string | null;
  uses: string | null;
  if: string | null;
  run: string | null;
  with: Readonly<Record<string, string>>;
}>;

export type Workflow = Readonly<{ env: Readonly<Record<string, string>>; steps: ReadonlyArray<Step> }>;

const STEP_KEYS: ReadonlySet<string> = new Set(['name', 'id', 'uses', 'if', 'run', 'with']);

const textOf = (value: unknown): string | null =>
  value === undefined || value === null ? null : String(value);

export const workflowOf = (markdown: string): Workflow => {
  const blocks = [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)];
  if (blocks.length !== 1) throw new Error(`expected one yaml block, found ${blocks.length}`);
  const workflow = parse(blocks[0]?.[1] ?? '') as {
    jobs?: Record<string, { env?: Record<string, unknown>; steps?: Array<Record<string, unknown>> }>;
  };
  const jobs = Object.values(workflow.jobs ?? {});
  if (jobs.length !== 1) throw new Error(`expected one job, found ${jobs.length}`);
  const job = jobs[0] as { env?: Record<string, unknown>; steps?: Array<Record<string, unknown>> };
  if (job.env === undefined) throw new Error('the job has no env');
  if (job.steps === undefined) throw new Error('the job has no steps');
  return {
    env: Object.fromEntries(Object.entries(job.env).map(([k, v]) => [k, String(v)])),
    steps: job.steps.map((step) => {
      const unknown = Object.keys(step).filter((k) => !STEP_KEYS.has(k));
      if (unknown.length > 0) throw new Error(`unknown step key ${unknown.join(', ')}`);
      return {
        name: textOf(step.name),
        id: textOf(step.id),
        uses: textOf(step.uses),
        if: textOf(step.if),
        run: textOf(step.run),
        with: Object.fromEntries(
          Object.entries((step.with ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        ),
      };
    }),
  };
};

/** Fill `${{ … }}` from `values`; an expression the test does not know is an error, never blank. */
export const expand = (text: string, values: Readonly<Record<string, string>>): string =>
  text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const value = values[expr];
    if (value === undefined) throw new Error(`no value for the expression \${{ ${expr} }}`);
    return value;
  });
