import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { serverEnv } from '../support/mcp-clients.js';
import { tempDir } from '../support/tmp.js';

// An agent pays for every byte of the tool list in every session: `tools/list` was 64,623 bytes
// for 13 tools (about 16,000 tokens). The bound is measured here on the wire, as the built server
// answers it over stdio, so the list cannot grow unseen; and its schemas keep to what every client
// reads (the portability rules the MCP Inspector lints: one `type` per schema, no `$ref`, typed
// array items, an object at every input's root).

const BUDGET = 16_000;

/** The JSON-RPC lines `clearance mcp` answers to initialize and then tools/list, as sent. */
const toolsListLine = async (): Promise<string> => {
  const child = spawn(process.execPath, [CLI, '--dir', await tempDir(), 'mcp'], {
    env: serverEnv(),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'measure', version: '0' },
    },
  });
  try {
    for await (const line of lines) {
      const message = JSON.parse(line) as { id?: number };
      if (message.id === 1) {
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      }
      if (message.id === 2) return line;
    }
    throw new Error('the server closed before it listed its tools');
  } finally {
    child.kill();
  }
};

type Schema = Readonly<Record<string, unknown>>;

/** Every place a schema's rules are broken, as `where: what`, walking each subschema. */
const portabilityProblems = (schema: unknown, where: string): string[] => {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return [`${where}: a schema that is not an object (a bare true/false reads as no type)`];
  const s = schema as Schema;
  const problems: string[] = [];
  if (Array.isArray(s.type)) problems.push(`${where}: type is an array ${JSON.stringify(s.type)}`);
  if (s.type === undefined && s.anyOf === undefined && s.oneOf === undefined && s.enum === undefined)
    problems.push(`${where}: no type`);
  for (const key of ['$ref', '$defs', 'definitions', 'discriminator', 'format'])
    if (key in s) problems.push(`${where}: ${key}`);
  if (s.type === 'array' && s.items === undefined)
    problems.push(`${where}: an array whose items have no type`);
  for (const [name, sub] of Object.entries((s.properties as Schema | undefined) ?? {}))
    problems.push(...portabilityProblems(sub, `${where}.${name}`));
  if (s.items !== undefined) problems.push(...portabilityProblems(s.items, `${where}[]`));
  for (const key of ['anyOf', 'oneOf'] as const)
    for (const [i, branch] of ((s[key] as unknown[] | undefined) ?? []).entries())
      problems.push(...portabilityProblems(branch, `${where}.${key}[${i}]`));
  return problems;
};

describe('the tool list', () => {
  it(`answers tools/list in at most ${BUDGET} bytes on the wire, every tool with a description and an input schema`, async () => {
    const line = await toolsListLine();
    const bytes = Buffer.byteLength(line, 'utf8');
    expect(bytes).toBeLessThanOrEqual(BUDGET);
    // the measure is of the real list: all thirteen tools are in it, described
    const { tools } = (JSON.parse(line) as { result: { tools: Array<Record<string, unknown>> } }).result;
    expect(tools).toHaveLength(14);
    for (const tool of tools) {
      expect(typeof tool.description === 'string' && tool.description.length > 20, String(tool.name)).toBe(
        true,
      );
      expect((tool.inputSchema as Schema).type).toBe('object');
      expect(tool.outputSchema, String(tool.name)).toBeUndefined();
    }
    console.info(`tools/list: ${bytes} bytes for ${tools.length} tools`);
  });

  it('lists schemas every client reads: one type per schema, no $ref, every array item typed', async () => {
    const { tools } = (
      JSON.parse(await toolsListLine()) as { result: { tools: Array<Record<string, unknown>> } }
    ).result;
    const problems = tools.flatMap((t) => portabilityProblems(t.inputSchema, String(t.name)));
    expect(problems).toEqual([]);
    // and the walk finds what it looks for: the schema the issue found, and a $ref
    expect(portabilityProblems({ type: ['string', 'null'] }, 'x')).toEqual([
      'x: type is an array ["string","null"]',
    ]);
    expect(portabilityProblems({ type: 'object', properties: { a: { $ref: '#/$defs/a' } } }, 'x')).toEqual([
      'x.a: no type',
      'x.a: $ref',
    ]);
    // the report a record takes is listed with its fields, down to a candidate's
    const record = tools.find((t) => t.name === 'record')?.inputSchema as Schema;
    const report = (record.properties as Schema).report as Schema;
    const candidate = ((report.properties as Schema).candidates as Schema).items as Schema;
    expect(Object.keys(candidate.properties as Schema)).toEqual(
      expect.arrayContaining(['file', 'line', 'category', 'summary', 'severity', 'evidence', 'confirmed']),
    );
    expect(candidate.required).toEqual(['file', 'category', 'summary', 'severity', 'evidence']);
  });
});
