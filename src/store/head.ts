import { closeSync, constants, readFileSync, writeSync } from 'node:fs';
import { encodeHead, type Head, parseHead } from './log-format.js';
import { openNoFollow } from './no-follow.js';

/**
 * The head anchor lets `verify` detect a changed or removed *last* line, which no later `prev` can
 * vouch for. It is an aid, not the record: written after the log's fsync and not synced itself, so
 * after a crash it may lag the log (reported, never an error) but never lead it. Its I/O is
 * synchronous: a 128-byte file, read and written inside the append's short critical section.
 */
export type HeadRead = Readonly<
  { state: 'ok'; head: Head } | { state: 'missing' | 'unreadable'; head: null }
>;

export const readHead = (file: string): HeadRead => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing', head: null };
    throw e;
  }
  const head = parseHead(text);
  return head === null ? { state: 'unreadable', head: null } : { state: 'ok', head };
};

/** Open the anchor for rewriting, never through a symlink (`unsafe-path`). */
export const openHead = (file: string): number => openNoFollow(file, constants.O_WRONLY | constants.O_CREAT);

/** Rewrite the anchor in place (same length every time, so no truncation and no forced flush). */
export const writeHead = (fd: number, head: Head): void => {
  writeSync(fd, encodeHead(head), 0, 'utf8');
};

export const writeHeadFile = (file: string, head: Head): void => {
  const fd = openHead(file);
  try {
    writeHead(fd, head);
  } finally {
    closeSync(fd);
  }
};
