/** Capture of the input revision from git and files, citation resolution, and prose findings. */
export { artifactShaOf } from './artifact.js';
export { type CaptureOptions, captureRevision } from './capture.js';
export { type Changes, changesBetween, parseNameStatus } from './changes.js';
export { type CitationSource, lineCount, resolveCitations } from './citations.js';
export {
  type FindingsMd,
  type FindingsMdError,
  type FindingsMdOptions,
  parseFindingsMarkdown,
} from './findings-md.js';
export { type GitOptions, git, gitBytes } from './git.js';
export { type BoundInput, inputShaOf } from './input-sha.js';
export { type CitedLine, type Hunk, lineAfter, lineMovesBetween, parseHunks } from './line-moves.js';
export { type Heading, headingsOf } from './markdown.js';
export { type Observed, type ObserveOptions, observeWorkspace } from './observe.js';
export { sharedGitDirOf } from './shared-git-dir.js';
export { inspectWorkspace, type Workspace, type WorkspaceOptions } from './workspace.js';
