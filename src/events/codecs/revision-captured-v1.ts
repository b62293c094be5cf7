import * as t from 'io-ts';

/** `revision.captured` v1, as docs/design.md "Events (v1)" defines it. Never edit: add a version. */
export const RevisionCapturedV1 = t.intersection([
  t.type({
    round: t.number,
    inputSha: t.string,
    touchedFiles: t.array(t.string),
    renames: t.array(t.type({ from: t.string, to: t.string })),
  }),
  t.partial({
    commit: t.string,
    /** the tree the input binds to: the commit's, or with a dirty work tree the working files' */
    tree: t.string,
    dirty: t.boolean,
    artifactSha: t.string,
    base: t.string,
  }),
]);
