import { isUtf8 } from 'node:buffer';
import type { DomainEvent, StoredEvent } from '@clearance/fold/internal/events/event.js';
import { decodeStoredEvent, encodeLine, latestVersion } from '@clearance/fold/internal/events/registry.js';
import { sha256Hex, ZERO_HASH } from '@clearance/fold/internal/events/sha256.js';
import * as E from 'fp-ts/lib/Either.js';

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

/** What a scan found, without the events themselves. */
export type LogSummary = Readonly<{
  /** bytes up to and including the last `\n` before any torn tail or bad line */
  size: number;
  /** where the last good line starts (0 when there is none): its bytes are what `lastHash` hashes */
  lastLineStart: number;
  lastSeq: number;
  /** hash of the last good line, or 64 zeros */
  lastHash: string;
  tornTail: TornTail | null;
  issue: IntegrityIssue | null;
  /** good lines after the seq the head anchor records (an append that stopped before updating it) */
  beyondHead: number;
}>;

export type ParsedLog = LogSummary & Readonly<{ events: ReadonlyArray<StoredEvent> }>;

const short = (hash: string) => hash.slice(0, 12);

/** Where a scan starts: the file offset of `bytes[0]`, and the seq, hash and start of the line before it. */
export type ScanStart = Readonly<{ offset: number; seq: number; hash: string; lineStart: number }>;

export const LOG_START: ScanStart = Object.freeze({ offset: 0, seq: 0, hash: ZERO_HASH, lineStart: 0 });

/**
 * Check a log line by line and hand each good event to `visit`, keeping none of them: a reader
 * that only needs the folded state never holds 100,000 events at once. Stops at the first line
 * that does not decode or chain. `from` continues a scan: `bytes` are then the log from
 * `from.offset` on, and every offset reported is the file's. `bytes` may be text already decoded
 * (PostgreSQL's lines, which the server holds as text): then it is checked as the bytes it encodes
 * to, without encoding it first.
 */
export const scanLog = (
  bytes: Buffer | string,
  head: Head | null,
  visit: (event: StoredEvent) => void,
  from: ScanStart = LOG_START,
): LogSummary => {
  let offset = 0;
  let lastSeq = from.seq;
  let lastHash = from.hash;
  let lastStart = -1;
  let issue: IntegrityIssue | null = null;
  let tornTail: TornTail | null = null;

  /**
   * Check one complete line (its text, without `\n`; `raw`, its bytes when they are at hand); null
   * when it decodes and chains.
   */
  const check = (text: string, raw?: Buffer): string | null => {
    const line = lastSeq + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return `not JSON (${(e as Error).message})`;
    }
    const decoded = decodeStoredEvent(value);
    if (E.isLeft(decoded)) {
      return `does not decode: ${decoded.left.path === '' ? '' : `${decoded.left.path}: `}${decoded.left.message}`;
    }
    const event = decoded.right;
    if (event.seq !== line)
      return `seq ${event.seq} where ${line} was expected (a line is missing, repeated or out of order)`;
    if (event.prev !== lastHash) {
      return `prev ${short(event.prev)}… is not the hash of ${line === 1 ? 'nothing (64 zeros)' : `line ${line - 1}`} (${short(lastHash)}…): a line before it was changed, removed or reordered`;
    }
    // for valid UTF-8, hashing the decoded text hashes exactly the line's bytes (which are hashed
    // as they are when at hand, rather than encoded again)
    const hash = sha256Hex(raw ?? text);
    if (head !== null && event.seq === head.seq && hash !== head.hash) {
      return `line ${line} is not the line the head anchor recorded (${short(head.hash)}…): it was changed`;
    }
    visit(event);
    lastSeq = event.seq;
    lastHash = hash;
    lastStart = offset;
    return null;
  };

  const isText = typeof bytes === 'string';
  if (isText || isUtf8(bytes)) {
    // the common case: decode once and walk the text, counting bytes only where a line is not ASCII
    const text = isText ? bytes : bytes.toString('utf8');
    const length = isText ? Buffer.byteLength(text) : bytes.length;
    const ascii = text.length === length;
    for (let at = 0; at < text.length; ) {
      const end = text.indexOf('\n', at);
      if (end === -1) {
        tornTail = { offset: from.offset + offset, bytes: length - offset };
        break;
      }
      const lineText = text.slice(at, end);
      const cause = check(lineText, ascii && !isText ? bytes.subarray(at, end) : undefined);
      if (cause !== null) {
        issue = { line: lastSeq + 1, offset: from.offset + offset, cause };
        break;
      }
      offset += (ascii ? lineText.length : Buffer.byteLength(lineText)) + 1;
      at = end + 1;
    }
  } else {
    // somewhere a byte is not UTF-8 (only bytes can hold one): walk them line by line to say where
    while (offset < bytes.length) {
      const end = bytes.indexOf(0x0a, offset);
      if (end === -1) {
        tornTail = { offset: from.offset + offset, bytes: bytes.length - offset };
        break;
      }
      const raw = bytes.subarray(offset, end);
      const cause = isUtf8(raw) ? check(raw.toString('utf8')) : 'not valid UTF-8';
      if (cause !== null) {
        issue = { line: lastSeq + 1, offset: from.offset + offset, cause };
        break;
      }
      offset = end + 1;
    }
  }
  if (issue === null && head !== null && head.seq > lastSeq) {
    issue = {
      line: lastSeq + 1,
      offset: from.offset + offset,
      cause: `the log ends at seq ${lastSeq} but its head anchor records seq ${head.seq}: lines were removed from the end`,
    };
  }
  const size = issue === null ? from.offset + offset : issue.offset;
  const beyondHead = head === null || issue !== null ? 0 : Math.max(0, lastSeq - head.seq);
  const lastLineStart = lastStart === -1 ? from.lineStart : from.offset + lastStart;
  return {
    size,
    lastLineStart,
    lastSeq,
    lastHash,
    tornTail: issue === null ? tornTail : null,
    issue,
    beyondHead,
  };
};

/** Check a whole log and keep its events. */
export const parseLog = (bytes: Buffer, head: Head | null = null): ParsedLog => {
  const events: StoredEvent[] = [];
  const summary = scanLog(bytes, head, (event) => events.push(event));
  return { ...summary, events };
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

/**
 * The head anchor file's bytes: always 128, so it is rewritten in place without truncating (on
 * ext4 a truncating rewrite forces a flush, as costly as an fsync). Its parser returns null when
 * it is missing or unreadable: the anchor is only an aid.
 */
export const HEAD_BYTES = 128;
export const encodeHead = (head: Head): string => `${JSON.stringify(head).padEnd(HEAD_BYTES - 1)}\n`;

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
