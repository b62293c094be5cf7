import { readFile, writeFile } from 'node:fs/promises';
import { encodeHead, type Head, parseHead } from './log-format.js';

/**
 * The head anchor lets `verify` detect a changed or removed *last* line, which no later `prev` can
 * vouch for. It is an aid, not the record: written after the log's fsync and not synced itself, so
 * after a crash it may lag the log (reported, never an error) but never lead it.
 */
export type HeadRead = Readonly<
  { state: 'ok'; head: Head } | { state: 'missing' | 'unreadable'; head: null }
>;

export const readHead = async (file: string): Promise<HeadRead> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing', head: null };
    throw e;
  }
  const head = parseHead(text);
  return head === null ? { state: 'unreadable', head: null } : { state: 'ok', head };
};

export const writeHead = (file: string, head: Head): Promise<void> => writeFile(file, encodeHead(head));
