import { reportJsonSchema } from '@clearance/fold/internal/events/round-report.js';
import type { Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { TOOLS, type Tool } from './tools.js';

/**
 * What `tools/list` answers: every tool's name, description and arguments, in as few bytes as say
 * them. A coding agent pays for the list in every session (64,623 bytes once, about 16,000 tokens),
 * so the listed schemas give each argument's type, whether it is required and a short word on it,
 * and leave the bounds and patterns to the check that refuses a value, which names the field and
 * the fix (`call-tool.ts`). No tool lists an output schema: each description says what it answers,
 * and a client that holds one validates even a refusal against it. The schemas keep to what every
 * client reads: one `type` per schema (never `["string","null"]`), no `$ref`, every array's items
 * typed (`test/mcp/tool-list.test.ts` holds it, and the size).
 */

/** What a listed schema leaves to the check: bounds, patterns, defaults and the JSON Schema dialect. */
const LEFT_TO_THE_CHECK = new Set([
  '$schema',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'default',
  'additionalProperties',
  'propertyNames',
  'exclusiveMinimum',
]);

/**
 * A JSON Schema with only what an agent needs to write a value: the descriptions of properties
 * nested `depth` deep at most (a tool's own arguments: 1).
 */
const compact = (schema: unknown, depth: number): unknown => {
  if (Array.isArray(schema)) return schema.map((s) => compact(s, depth));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (LEFT_TO_THE_CHECK.has(key)) continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === 'description' && depth < 0) continue;
    if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, s]) => [name, compact(s, depth - 1)]),
      );
    else out[key] = compact(value, depth);
  }
  return out;
};

/**
 * The round report as `record` lists it: its fields, their types and their words, down to a
 * candidate's; `clearance schema report` (docs/reports.md) has the whole contract, bounds and all.
 */
const reportListed = (): object => ({
  ...(compact(reportJsonSchema(), 3) as Record<string, unknown>),
  description:
    "the round report: runId, round (next round), inputSha (from capture), completed: true; candidates: new findings (confirmed: true, or a verifier's assessment in verdict); decisions: one per open finding in a touched file",
});

const LISTED = { report: reportListed } as const;

const listed = (tool: Tool): ListedTool => {
  const input = compact(z.toJSONSchema(tool.input, { io: 'input' }), 1) as ListedTool['inputSchema'];
  const properties: Record<string, object> = { ...(input.properties ?? {}) };
  for (const [name, which] of Object.entries(tool.listed ?? {})) properties[name] = LISTED[which]();
  return { name: tool.name, description: tool.description, inputSchema: { ...input, properties } };
};

let tools: ReadonlyArray<ListedTool> | undefined;

/** The tools as `tools/list` answers them: made on the first list, once. */
export const listedTools = (): ReadonlyArray<ListedTool> => {
  tools ??= TOOLS.map(listed);
  return tools;
};
