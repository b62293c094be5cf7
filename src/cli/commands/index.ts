import type { Command, Option } from 'commander';
import type { Io } from '../context.js';
import type { Services } from '../services.js';

/** What each command module exports: a function that adds the command to the program. */
export type RegisterCommand = (program: Command, io: Io, services: Services) => Command;

// Every command, in the order `--help` lists them. Each is imported only when it may run: a CI
// script calls `clearance status` or `record` many times, and loading every command's
// dependencies (zod above all) cost more than the command itself. The bundle splits at these
// imports. The read commands share what they load (the fold and the views) and come as one module,
// read-commands.ts. A write command comes alone: together they made `capture`, `verify` and `export`
// compile zod for `record` and `open`, about 50 to 80 ms of CPU more a run.
const COMMANDS: Readonly<Record<string, () => Promise<RegisterCommand>>> = {
  open: async () => (await import('./open.js')).registerOpen,
  capture: async () => (await import('./capture.js')).registerCapture,
  publish: async () => (await import('./publish.js')).registerPublish,
  wait: async () => (await import('./wait.js')).registerWait,
  stage: async () => (await import('./stage.js')).registerStage,
  contribute: async () => (await import('./contribute.js')).registerContribute,
  collect: async () => (await import('./collect.js')).registerCollect,
  record: async () => (await import('./record.js')).registerRecord,
  status: async () => (await import('./read-commands.js')).registerStatus,
  findings: async () => (await import('./read-commands.js')).registerFindings,
  replay: async () => (await import('./read-commands.js')).registerReplay,
  explain: async () => (await import('./read-commands.js')).registerExplain,
  feedback: async () => (await import('./read-commands.js')).registerFeedback,
  gate: async () => (await import('./gate.js')).registerGate,
  next: async () => (await import('./read-commands.js')).registerNext,
  may: async () => (await import('./read-commands.js')).registerMay,
  cost: async () => (await import('./read-commands.js')).registerCost,
  reproductions: async () => (await import('./read-commands.js')).registerReproductions,
  reproduce: async () => (await import('./reproduce.js')).registerReproduce,
  dispute: async () => (await import('./dispute.js')).registerDispute,
  checks: async () => (await import('./checks.js')).registerChecks,
  rule: async () => (await import('./rule.js')).registerRule,
  extend: async () => (await import('./extend.js')).registerExtend,
  sarif: async () => (await import('./read-commands.js')).registerSarif,
  report: async () => (await import('./read-commands.js')).registerReport,
  verify: async () => (await import('./verify.js')).registerVerify,
  attest: async () => (await import('./attest.js')).registerAttest,
  audit: async () => (await import('./audit.js')).registerAudit,
  schema: async () => (await import('./schema.js')).registerSchema,
  export: async () => (await import('./transfer.js')).registerExport,
  import: async () => (await import('./transfer.js')).registerImport,
  store: async () => (await import('./store.js')).registerStore,
  // the MCP server: its flags and help; the server itself is a service the entry hands in
  mcp: async () => (await import('./mcp.js')).registerMcp,
  demo: async () => (await import('./demo.js')).registerDemo,
};

/**
 * The commands this command line can reach. Only when the words before the first operand are all
 * the program's own options do we narrow: to the command that operand names, or to none when the
 * program only prints its version. Anything else (help, a typo, an unknown option) gets every
 * command, so commander answers exactly as it would with all of them registered.
 */
export const commandsNeeded = (argv: ReadonlyArray<string>, options: ReadonlyArray<Option>): string[] => {
  const all = Object.keys(COMMANDS);
  let version = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--') return all;
    if (!arg.startsWith('-') || arg === '-') return Object.hasOwn(COMMANDS, arg) ? [arg] : all;
    const flag = arg.startsWith('--') ? arg.split('=', 1)[0] : arg;
    const option = options.find((o) => o.long === flag || o.short === flag);
    if (option === undefined) return all;
    if (option.long === '--version') version = true;
    // whether an optional value consumes the next word depends on that word: leave it to commander
    if (option.optional) return all;
    // an option that takes a value consumes the next word unless it came as --flag=value
    if (option.required && flag === arg) i += 1;
  }
  return version ? [] : all;
};

/** Import the named commands and add them to the program, in `--help` order. */
export const registerCommands = async (
  program: Command,
  io: Io,
  names: ReadonlyArray<string>,
  services: Services,
): Promise<void> => {
  const registers = await Promise.all(
    Object.keys(COMMANDS)
      .filter((name) => names.includes(name))
      .map((name) => (COMMANDS[name] as () => Promise<RegisterCommand>)()),
  );
  for (const register of registers) register(program, io, services);
};
