// The commands that append to a run or parse what a user hands in (a report, a policy), loaded as
// one module: they share the lock, the appender and zod.
export { registerCapture } from './capture.js';
export { registerCollect } from './collect.js';
export { registerContribute } from './contribute.js';
export { registerExtend } from './extend.js';
export { registerOpen } from './open.js';
export { registerPublish } from './publish.js';
export { registerRecord } from './record.js';
export { registerReproduce } from './reproduce.js';
export { registerRule } from './rule.js';
export { registerSchema } from './schema.js';
export { registerStage } from './stage.js';
export { registerStore } from './store.js';
export { registerExport, registerImport } from './transfer.js';
export { registerVerify } from './verify.js';
export { registerWait } from './wait.js';
