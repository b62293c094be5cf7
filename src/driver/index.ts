export { type ActorOptions, captureRound } from './capture.js';
export { type OpenReview, openReview } from './open.js';
export { type RecordOptions, recordReport } from './record.js';
