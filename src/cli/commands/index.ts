import type { Command } from 'commander';
import type { Io } from '../context.js';
import { registerCapture } from './capture.js';
import { registerDemo } from './demo.js';
import { registerExplain } from './explain.js';
import { registerFindings } from './findings.js';
import { registerOpen } from './open.js';
import { registerRecord } from './record.js';
import { registerReplay } from './replay.js';
import { registerSchema } from './schema.js';
import { registerStatus } from './status.js';
import { registerVerify } from './verify.js';

/** Every command, in the order `--help` lists them. */
export const registerCommands = (program: Command, io: Io): void => {
  for (const register of [
    registerOpen,
    registerCapture,
    registerRecord,
    registerStatus,
    registerFindings,
    registerReplay,
    registerExplain,
    registerVerify,
    registerSchema,
    registerDemo,
  ]) {
    register(program, io);
  }
};
