import { constants, lstatSync, openSync } from 'node:fs';
import { ClearanceError } from '../errors.js';

/**
 * Open a file of the store for writing without ever following a symbolic link planted in its
 * place (O_NOFOLLOW; a new file is created with O_EXCL instead). A link there is refused as
 * `unsafe-path` before anything is written.
 */
export const openNoFollow = (file: string, flags: number, mode = 0o644): number => {
  try {
    return openSync(file, flags | constants.O_NOFOLLOW, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw unsafePath(file);
    throw e;
  }
};

export const unsafePath = (file: string): ClearanceError =>
  new ClearanceError(
    'unsafe-path',
    `${file} is a symbolic link: clearance never writes through a link inside its store; remove it (or replace it with the file it points to)`,
    { path: file },
  );

/**
 * Refuse a directory of the store (`runs/`, a run's own, its archive) that is a symbolic link:
 * O_NOFOLLOW guards only a path's last part, so a linked directory would carry every write made
 * inside it elsewhere. One lstat, before anything is created or locked there; a path that does
 * not exist yet passes (it is made as a directory).
 */
export const refuseLink = (dir: string): void => {
  let linked = false;
  try {
    linked = lstatSync(dir).isSymbolicLink();
  } catch {
    return;
  }
  if (linked) throw unsafePath(dir);
};
