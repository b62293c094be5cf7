import { isUtf8 } from 'node:buffer';
import * as E from 'fp-ts/lib/Either.js';
import type { DomainEvent, StoredEvent } from '../events/event.js';
import { decodeStoredEvent, encodeLine, latestVersion } from '../events/registry.js';
import { sha256Hex, ZERO_HASH } from '../events/sha256.js';

/**
 * The log format (docs/log-format.md): one JSON envelope per line, each line ending in `\n`, `seq`
 * from 1 with no gaps, `prev` the SHA-256 of the previous line's bytes (without its `\n`). This
 * module turns bytes into checked events and events into bytes; it does no I/O.
 */

/** Where and why a log stopped being trustworthy: 1-based line, byte offset of its start, cause. */
export type IntegrityIssue = Readonly<{ line: number; offset: number; cause: string }>;

/** A final line without `\n`: never acknowledged, reported and ignored. */
export type TornTail = Readonly<{ offset: number; bytes: number }>;

/** The head anchor: the seq and hash of the last acknowledged line, kept beside the log. */
export type Head = Readonly<{ seq: number; hash: string }>;

export type ParsedLog = Readonly<{
  events: ReadonlyArray<StoredEvent>;
  /** bytes up to and including the last `\n` before any torn tail or bad line */
  size: number;
  lastSeq: number;
  /** hash of the last good line, or 64 zeros */
  lastHash: string;
  tornTail: TornTail | null;
  issue: IntegrityIssue | null;
  /** good lines after the seq the head anchor records (an append that stopped before updating it) */
  beyondHead: number;
}>;

const short = (hash: string) => hash.slice(0, 12);

/** Parse and check a whole log. Stops at the first line that does not decode or chain. */
export const parseLog = (bytes: Buffer, head: Head | null = null): ParsedLog => {
  const events: StoredEvent[] = [];
  let offset = 0;
  let lastSeq = 0;
  let lastHash = ZERO_HASH;
  let issue: IntegrityIssue | null = null;
  let tornTail: TornTail | null = null;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    if (end === -1) {
      tornTail = { offset, bytes: bytes.length - offset };
      break;
    }
    const line = lastSeq + 1;
    const raw = bytes.subarray(offset, end);
    const fail = (cause: string) => ({ line, offset, cause });
    if (!isUtf8(raw)) {
      issue = fail('not valid UTF-8');
      break;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      issue = fail(`not JSON (${(e as Error).message})`);
      break;
    }
    const decoded = decodeStoredEvent(value);
    if (E.isLeft(decoded)) {
      issue = fail(
        `does not decode: ${decoded.left.path === '' ? '' : `${decoded.left.path}: `}${decoded.left.message}`,
      );
      break;
    }
    const event = decoded.right;
    if (event.seq !== line) {
      issue = fail(
        `seq ${event.seq} where ${line} was expected (a line is missing, repeated or out of order)`,
      );
      break;
    }
    if (event.prev !== lastHash) {
      issue = fail(
        `prev ${short(event.prev)}… is not the hash of ${line === 1 ? 'nothing (64 zeros)' : `line ${line - 1}`} (${short(lastHash)}…): a line before it was changed, removed or reordered`,
      );
      break;
    }
    const hash = sha256Hex(raw);
    if (head !== null && event.seq === head.seq && hash !== head.hash) {
      issue = fail(
        `line ${line} is not the line the head anchor recorded (${short(head.hash)}…): it was changed`,
      );
      break;
    }
    events.push(event);
    lastSeq = event.seq;
    lastHash = hash;
    offset = end + 1;
  }
  if (issue === null && head !== null && head.seq > lastSeq) {
    issue = {
      line: lastSeq + 1,
      offset,
      cause: `the log ends at seq ${lastSeq} but its head anchor records seq ${head.seq}: lines were removed from the end`,
    };
  }
  const size = issue === null ? offset : issue.offset;
  const beyondHead = head === null || issue !== null ? 0 : Math.max(0, lastSeq - head.seq);
  return { events, size, lastSeq, lastHash, tornTail: issue === null ? tornTail : null, issue, beyondHead };
};

export type Encoded = Readonly<{
  text: string;
  stored: ReadonlyArray<StoredEvent>;
  lastSeq: number;
  lastHash: string;
}>;

/** The lines new events become, chained after `prev` from `seq + 1`. */
export const encodeEvents = (
  events: ReadonlyArray<DomainEvent>,
  after: Readonly<{ seq: number; hash: string }>,
  meta: Readonly<{ at: string; by: string }>,
): Encoded => {
  let seq = after.seq;
  let prev = after.hash;
  let text = '';
  const stored: StoredEvent[] = [];
  for (const event of events) {
    seq += 1;
    const line = encodeLine({ seq, type: event.type, at: meta.at, by: meta.by, prev, data: event.data });
    stored.push({
      ...event,
      seq,
      v: latestVersion(event.type),
      at: meta.at,
      by: meta.by,
      prev,
    } as StoredEvent);
    text += `${line}\n`;
    prev = sha256Hex(line);
  }
  return { text, stored, lastSeq: seq, lastHash: prev };
};

/** The head anchor file's bytes, and its parser (null when missing or unreadable: only an aid). */
export const encodeHead = (head: Head): string => `${JSON.stringify(head)}\n`;

export const parseHead = (text: string): Head | null => {
  try {
    const value = JSON.parse(text) as Partial<Head>;
    return Number.isInteger(value.seq) && typeof value.hash === 'string' && /^[0-9a-f]{64}$/.test(value.hash)
      ? { seq: value.seq as number, hash: value.hash }
      : null;
  } catch {
    return null;
  }
};
