import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { idOfOversized, MAX_REQUEST_BYTES, oversizedAnswer } from './request-bound.js';

/** How much of an oversized line's ends is kept to find its id: enough for any id, never the line. */
const END_BYTES = 4096;

/**
 * MCP's stdio transport (one JSON-RPC message a line), with every line bounded: a line longer
 * than `MAX_REQUEST_BYTES` is read to its end without being kept, answered with the named
 * `oversized` error (to its id, when one stands at either end), and the server reads the next
 * line. The SDK's own reader closes the server at 10 MiB: exit 0, nothing said, the next request
 * never answered. A line that is not JSON-RPC is said to the server's error handler and skipped,
 * as the SDK's reader does.
 */
export const boundedStdio = (
  input: Readable = process.stdin,
  output: Writable = process.stdout,
  maxLineBytes: number = MAX_REQUEST_BYTES,
): Transport => {
  let kept: Buffer[] = [];
  let keptBytes = 0;
  /** an oversized line being read past: its first and last bytes and its length so far */
  let skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  const send = (message: JSONRPCMessage): Promise<void> =>
    new Promise((resolve) => {
      if (output.write(serializeMessage(message))) resolve();
      else output.once('drain', resolve);
    });

  const transport: Transport = {
    start: async () => {
      input.on('data', onData);
      input.on('error', onError);
    },
    send,
    close: async () => {
      input.off('data', onData);
      input.off('error', onError);
      if (input.listenerCount('data') === 0) input.pause();
      kept = [];
      skipping = undefined;
      transport.onclose?.();
    },
  };

  const onError = (error: Error) => transport.onerror?.(error);

  const lineRead = (line: Buffer) => {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    try {
      transport.onmessage?.(deserializeMessage(text));
    } catch (error) {
      transport.onerror?.(error as Error);
    }
  };

  const oversizedRead = (line: { head: Buffer; tail: Buffer; bytes: number }) => {
    const id = idOfOversized(line.head.toString('utf8'), line.tail.toString('utf8').replace(/\r$/, ''));
    transport.onerror?.(new Error(`refused a request of ${line.bytes} bytes, over ${maxLineBytes}`));
    void send(oversizedAnswer(id, line.bytes));
  };

  const lastBytes = (a: Buffer, b: Buffer): Buffer => {
    const both =
      a.length + b.length <= END_BYTES ? Buffer.concat([a, b]) : Buffer.concat([a, b.subarray(-END_BYTES)]);
    return Buffer.from(both.subarray(-END_BYTES));
  };

  function onData(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (skipping !== undefined) {
        skipping.bytes += piece.length;
        skipping.tail = lastBytes(skipping.tail, piece);
      } else if (keptBytes + piece.length > maxLineBytes) {
        const whole = Buffer.concat([...kept, piece]);
        skipping = {
          head: Buffer.from(whole.subarray(0, END_BYTES)),
          tail: Buffer.from(whole.subarray(-END_BYTES)),
          bytes: whole.length,
        };
        kept = [];
        keptBytes = 0;
      } else if (piece.length > 0) {
        kept.push(piece);
        keptBytes += piece.length;
      }
      if (newline === -1) return;
      if (skipping !== undefined) {
        oversizedRead(skipping);
        skipping = undefined;
      } else {
        const line = Buffer.concat(kept);
        kept = [];
        keptBytes = 0;
        lineRead(line);
      }
      start = newline + 1;
    }
  }

  return transport;
};
