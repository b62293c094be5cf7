import * as fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ZERO_HASH } from '../src/index.js';
import { encodeEvents, parseLog } from '../src/store/index.js';
import { reachableRunArb } from '../src/testing.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

/** A log as the store writes it: its bytes and its head anchor. */
const logArb = reachableRunArb
  .filter((run) => run.events.length >= 2)
  .map((run) => {
    const encoded = encodeEvents(
      run.events,
      { seq: 0, hash: ZERO_HASH },
      { at: '2026-11-30T07:00:00.000Z', by: 'ci' },
    );
    return {
      bytes: Buffer.from(encoded.text),
      head: { seq: encoded.lastSeq, hash: encoded.lastHash },
      count: run.events.length,
    };
  });

const lineSpans = (bytes: Buffer): Array<[number, number]> => {
  const spans: Array<[number, number]> = [];
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start) + 1;
    spans.push([start, end]);
    start = end;
  }
  return spans;
};

describe('the log detects tampering', () => {
  property([logArb], { numRuns })(
    'an untouched log reads back intact, every event in order',
    ({ bytes, head, count }) => {
      const parsed = parseLog(bytes, head);
      expect(parsed.issue).toBeNull();
      expect(parsed.tornTail).toBeNull();
      expect(parsed.events.map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    },
  );

  property(
    [
      logArb.chain((log) =>
        fc.tuple(fc.constant(log), fc.nat({ max: log.bytes.length - 1 }), fc.integer({ min: 0, max: 7 })),
      ),
    ],
    {
      numRuns,
    },
  )('any bit flipped anywhere is detected', ([{ bytes, head }, at, bit]) => {
    const flipped = Buffer.from(bytes);
    flipped[at] = (flipped[at] as number) ^ (1 << bit);
    expect(parseLog(flipped, head).issue).not.toBeNull();
  });

  property([logArb.chain((log) => fc.tuple(fc.constant(log), fc.nat({ max: log.count - 1 })))], { numRuns })(
    'any line removed is detected',
    ([{ bytes, head }, line]) => {
      const spans = lineSpans(bytes);
      const [start, end] = spans[line] as [number, number];
      expect(
        parseLog(Buffer.concat([bytes.subarray(0, start), bytes.subarray(end)]), head).issue,
      ).not.toBeNull();
    },
  );

  property([logArb.chain((log) => fc.tuple(fc.constant(log), fc.nat({ max: log.count - 2 })))], { numRuns })(
    'any two adjacent lines swapped are detected',
    ([{ bytes, head }, line]) => {
      const spans = lineSpans(bytes);
      const [a0, a1] = spans[line] as [number, number];
      const [b0, b1] = spans[line + 1] as [number, number];
      const swapped = Buffer.concat([
        bytes.subarray(0, a0),
        bytes.subarray(b0, b1),
        bytes.subarray(a0, a1),
        bytes.subarray(b1),
      ]);
      expect(parseLog(swapped, head).issue).not.toBeNull();
    },
  );

  property([logArb.chain((log) => fc.tuple(fc.constant(log), fc.nat({ max: log.bytes.length - 1 })))], {
    numRuns,
  })(
    'a crash mid-append loses only the unacknowledged line: a cut inside the last line is a torn tail',
    ([{ bytes, count }, cut]) => {
      const spans = lineSpans(bytes);
      const lastStart = (spans[spans.length - 1] as [number, number])[0];
      const at = lastStart + (cut % (bytes.length - lastStart));
      // the head anchor is written only after the last line's fsync: a crash before it leaves the previous head
      const parsed = parseLog(bytes.subarray(0, at), null);
      expect(parsed.issue).toBeNull();
      expect(parsed.events).toHaveLength(count - 1);
      expect(parsed.tornTail === null ? 0 : parsed.tornTail.bytes).toBe(at - lastStart);
    },
  );
});
