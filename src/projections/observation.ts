/**
 * What is in front of the gate now, observed by `src/revision` and compared by the gate view with
 * what was reviewed. Here, below both, so the observer does not import the view.
 */
export type GateObservation = Readonly<{
  commit?: string;
  tree?: string;
  /** the working files' tree id; compared only when the review was bound to a dirty work tree */
  workingTree?: string;
  artifactSha?: string;
  /**
   * `gate --base`: the patch HEAD makes and the patch the reviewed commit made, each against its
   * merge base with the base named (`git patch-id`); observed only when HEAD is not the reviewed commit
   */
  patch?: Readonly<{ base: string; reviewed: PatchSide; head: PatchSide }>;
}>;

/** One side's patch id and the merge base it was taken from, or why there is none to compare. */
export type PatchSide = Readonly<{ id: string; mergeBase: string }> | Readonly<{ id: null; why: string }>;
