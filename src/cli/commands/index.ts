import type { Command } from 'commander';
import type { Io } from '../context.js';
import { registerCapture } from './capture.js';
import { registerCost } from './cost.js';
import { registerDemo } from './demo.js';
import { registerExplain } from './explain.js';
import { registerExtend } from './extend.js';
import { registerFeedback } from './feedback.js';
import { registerFindings } from './findings.js';
import { registerGate } from './gate.js';
import { registerMay } from './may.js';
import { registerMcp } from './mcp.js';
import { registerNext } from './next.js';
import { registerOpen } from './open.js';
import { registerPublish } from './publish.js';
import { registerRecord } from './record.js';
import { registerReplay } from './replay.js';
import { registerReport } from './report.js';
import { registerReproductions } from './reproductions.js';
import { registerRule } from './rule.js';
import { registerSarif } from './sarif.js';
import { registerSchema } from './schema.js';
import { registerStage } from './stage.js';
import { registerStatus } from './status.js';
import { registerVerify } from './verify.js';
import { registerWait } from './wait.js';

/** Every command, in the order `--help` lists them. */
export const registerCommands = (program: Command, io: Io): void => {
  for (const register of [
    registerOpen,
    registerCapture,
    registerPublish,
    registerWait,
    registerStage,
    registerRecord,
    registerStatus,
    registerFindings,
    registerReplay,
    registerExplain,
    registerFeedback,
    registerGate,
    registerNext,
    registerMay,
    registerCost,
    registerReproductions,
    registerRule,
    registerExtend,
    registerSarif,
    registerReport,
    registerVerify,
    registerSchema,
    registerMcp,
    registerDemo,
  ]) {
    register(program, io);
  }
};
