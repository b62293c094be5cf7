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
}>;
