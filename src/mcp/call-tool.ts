import type { NextStep as FoldStep } from '@clearance/fold/internal/events/next-step.js';
import { quoted } from '@clearance/fold/internal/events/quoted.js';
import { formatPath } from '@clearance/fold/internal/events/rejection.js';
import { describeIssue, describeIssues } from '@clearance/fold/internal/events/schema-issues.js';
import { jsonText } from '@clearance/fold/internal/text/untrusted.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod';
import type { OperationContext } from '../operations/context.js';
import { failureOf } from '../operations/failure.js';
import { type NextStep, nextStepOf } from './next-step.js';
import { TOOLS, type Tool } from './tools.js';

/**
 * A refusal as an agent reads it: a tool result with `isError: true` (so the model sees it and
 * corrects itself, as the MCP specification asks of invalid arguments too), carrying the same
 * object as structured content and as text: what was refused (`code`, the exit table's), why
 * (`message`), which arguments (`fields`, paths such as `report.decisions[0].status`) and what to
 * do now (`next`: a tool and its arguments, or a person). Nothing was written.
 */
export type ToolFailure = Readonly<{
  ok: false;
  error: Readonly<{
    code: string;
    message: string;
    fields: ReadonlyArray<string>;
    next: NextStep;
    details?: Readonly<Record<string, unknown>>;
  }>;
}>;

const answer = (value: object, isError: boolean): CallToolResult => ({
  content: [{ type: 'text', text: jsonText(value) }],
  structuredContent: value as Record<string, unknown>,
  ...(isError ? { isError: true } : {}),
});

const failed = (
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  failure: Readonly<{ code: string; message: string; fields: ReadonlyArray<string> }> &
    Readonly<{ details?: Readonly<Record<string, unknown>>; next?: FoldStep }>,
): CallToolResult => {
  const { path: _path, ...details } = failure.details ?? {};
  const refused: ToolFailure = {
    ok: false,
    error: {
      code: failure.code,
      message: failure.message,
      fields: failure.fields,
      next: nextStepOf(failure.code, tool.name, args, failure.next),
      ...(Object.keys(details).length > 0 ? { details } : {}),
    },
  };
  return answer(refused, true);
};

/** Which code an argument's issue refuses with: over a bound, a check's own code, or a usage error. */
const codeOf = (issue: z.core.$ZodIssue): string => {
  if (issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array'))
    return 'over-limit';
  const own: unknown = issue.code === 'custom' ? issue.params?.code : undefined;
  return typeof own === 'string' ? own : 'usage';
};

/** The arguments zod refused: the first issue's code, every issue's field, the first few said. */
const invalidArguments = (issues: ReadonlyArray<z.core.$ZodIssue>) => ({
  code: issues[0] === undefined ? 'usage' : codeOf(issues[0]),
  message: `invalid arguments: ${describeIssues(issues, 'arguments').text}`,
  fields: [
    ...new Set(
      issues.map((issue) => formatPath(describeIssue(issue, 'arguments').path)).filter((f) => f !== ''),
    ),
  ].slice(0, 20),
});

/**
 * A JSON-RPC error as the SDK's protocol sends it (its `code` and `message`): not the SDK's
 * `McpError`, whose message already says "MCP error -32602", which its client then says again.
 */
const protocolError = (code: number, message: string): Error => Object.assign(new Error(message), { code });

const BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));

/**
 * Run one `tools/call`: the arguments checked against the tool's schema, mapped to its operation's
 * input, the operation run on the server's context; its result as structured content and text, or
 * a refusal as a `ToolFailure`. A tool that does not exist is a protocol error, as the
 * specification has it: the client sent what no server of this list could answer.
 */
export const callTool = async (
  context: OperationContext,
  dir: string | undefined,
  name: string,
  args: Readonly<Record<string, unknown>> | undefined,
): Promise<CallToolResult> => {
  const tool = BY_NAME.get(name);
  if (tool === undefined)
    throw protocolError(
      ErrorCode.InvalidParams,
      `no tool ${quoted(name)}: the tools are ${TOOLS.map((t) => t.name).join(', ')}`,
    );
  const given = args ?? {};
  const parsed = tool.input.safeParse(given);
  if (!parsed.success) return failed(tool, given, invalidArguments(parsed.error.issues));
  try {
    return answer({ ok: true, ...(await tool.call(context, parsed.data)) }, false);
  } catch (error) {
    const { code, message, details, next } = failureOf(error, dir);
    const path = details.path;
    const fields = Array.isArray(path) && path.length > 0 ? [formatPath(path)] : [];
    return failed(tool, given, { code, message, fields, details, ...(next === undefined ? {} : { next }) });
  }
};
