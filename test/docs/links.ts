import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { anchorsOf, isExternal, linksOf } from './markdown.js';

/**
 * The relative links of some Markdown files that do not resolve, as `file:line: target (why)`: a
 * file or directory that is not there, a link out of the repository, or a `#fragment` that is no
 * heading's anchor in the file it names (GitHub's slugs, markdown.ts). A fragment into a file
 * that is not Markdown may only be GitHub's line anchor (`#L12`, `#L12-L20`).
 */
export const brokenLinks = (root: string, files: ReadonlyArray<string>): string[] => {
  const anchors = new Map<string, ReadonlySet<string>>();
  const anchorsIn = (file: string): ReadonlySet<string> => {
    let known = anchors.get(file);
    if (known === undefined) {
      known = new Set(anchorsOf(readFileSync(file, 'utf8')));
      anchors.set(file, known);
    }
    return known;
  };
  return files.flatMap((file) => {
    const from = path.join(root, file);
    return linksOf(readFileSync(from, 'utf8')).flatMap(({ target, line }) => {
      if (isExternal(target)) return [];
      const at = `${file}:${line}: ${target}`;
      const hash = target.indexOf('#');
      const rawPath = hash === -1 ? target : target.slice(0, hash);
      const fragment = hash === -1 ? null : target.slice(hash + 1);
      let wanted: string;
      let fragmentText: string | null;
      try {
        wanted = decodeURIComponent(rawPath);
        fragmentText = fragment === null ? null : decodeURIComponent(fragment);
      } catch {
        return [`${at} (not a well-formed URL)`];
      }
      const resolved =
        wanted === ''
          ? from
          : wanted.startsWith('/')
            ? path.join(root, wanted)
            : path.resolve(path.dirname(from), wanted);
      if (path.relative(root, resolved).startsWith('..')) return [`${at} (outside the repository)`];
      if (!existsSync(resolved)) return [`${at} (no such file)`];
      if (fragmentText === null) return [];
      if (resolved.endsWith('.md') && statSync(resolved).isFile()) {
        return anchorsIn(resolved).has(fragmentText) ? [] : [`${at} (no heading with that anchor)`];
      }
      return /^L\d+(-L\d+)?$/.test(fragmentText)
        ? []
        : [`${at} (a fragment into a file that is not Markdown)`];
    });
  });
};
