import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { INPUT_BOUNDS } from '../operations/input-bounds.js';

/**
 * The most one MCP request may hold, on either transport: the largest input an operation reads
 * whole (a report, a reproduction's output: 4 MiB, the command line's default `--max-bytes`) and
 * 1 MiB more for the request around it and its JSON escaping. The SDK's own stdio reader closed the
 * server on a line of 10 MiB (exit 0, nothing said, the next request never answered); its client
 * drops a session on an answer of 10 MiB: a request is refused well below either.
 */
export const MAX_REQUEST_BYTES = INPUT_BOUNDS.bytes + 1024 * 1024;

/** JSON-RPC's "invalid request": the request was read, and is not one this server takes. */
const INVALID_REQUEST = -32600;

/** The error an oversized request is answered with, on both transports: named, and the bound said. */
export const oversizedRequest = (bytes: number | undefined) =>
  ({
    code: INVALID_REQUEST,
    message: `oversized: the request${bytes === undefined ? '' : ` (${bytes} bytes)`} is over the ${MAX_REQUEST_BYTES} bytes one request may hold; a report, a review or an output is at most ${INPUT_BOUNDS.bytes} bytes`,
    data: { code: 'oversized', limit: MAX_REQUEST_BYTES, ...(bytes === undefined ? {} : { bytes }) },
  }) as const;

/** The answer to an oversized request whose id was found (`id`), or to one whose id was not. */
export const oversizedAnswer = (id: RequestId | undefined, bytes: number | undefined): JSONRPCMessage =>
  ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: oversizedRequest(bytes) }) as JSONRPCMessage;

/** A JSON-RPC id: a number or a short string, as JSON. */
const ID = String.raw`(-?\d{1,16}|"[^"\\]{1,200}")`;
/** Where an id stands at the start of a message (`{"jsonrpc":"2.0","id":7,…`), or at its end (the SDK writes it last). */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,`);
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of a request too large to read, from its first and last bytes: the request is never
 * parsed, so only an id at either end is found; a request whose id is elsewhere is answered
 * without one (JSON-RPC's answer to a request it could not read), and its caller's wait ends on
 * its own time-out.
 */
export const idOfOversized = (head: string, tail: string): RequestId | undefined => {
  const found = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail)?.[1];
  return found === undefined ? undefined : (JSON.parse(found) as RequestId);
};
