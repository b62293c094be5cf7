export { type ActorOptions, captureRound, captureWorkspace, type WorkspaceSource } from './capture.js';
export { recordChecks } from './checks.js';
export { type CollectOptions, collectRound } from './collect.js';
export {
  collectContributions,
  contribute,
  contributeUntrusted,
  type ExpertSource,
  recordMerged,
} from './contribute.js';
export { type GateSource, gate } from './gate.js';
export {
  endRound,
  extendRun,
  failStage,
  finishStage,
  ruleFinding,
  startStage,
} from './lifecycle.js';
export { captureFirstRound, type OpenReview, openReview } from './open.js';
export {
  type RecordOptions,
  recordFindingsMarkdown,
  recordReport,
  recordUntrustedReport,
} from './record.js';
export { type Reproduced, recordReproduction } from './reproduce.js';
export { artifactNameOf, type Subject } from './subject.js';
